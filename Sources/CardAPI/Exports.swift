// The card API's client speaks the backend seam's language (sessions, images, failures) and the
// contract's (error codes, envelopes): a module that uses the client gets both with it.
@_exported public import CardAPIContract
@_exported public import CardBackend
