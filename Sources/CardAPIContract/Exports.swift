// The contract is written in the card models' terms (``CardModels/CardFields``, the limits):
// a module that speaks the contract gets them with it, and with them `TextSafety`.
@_exported public import CardModels
