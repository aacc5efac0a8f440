"""Training, export and evaluation of the card models: the top of the house with :mod:`datasets`.

* :mod:`training.classifier_model`: the classifier's network (torch; export needs it, the
  runtime reads ONNX and never does);
* :mod:`training.classifier_train`: its training loop on crops from :mod:`datasets`;
* :mod:`training.evaluate`: the reader's card precision, recall and F1 on synthetic sets;
* :mod:`training.offline`: the checkout training runs in, ultralytics kept off the network.

Nothing at run time imports this package; the commands ``tuolaji train``, ``export`` and
``eval-detector`` (:mod:`tuolaji`) do.
"""
