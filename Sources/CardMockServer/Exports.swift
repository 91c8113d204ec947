// The mock server speaks the card API's contract (the JSON of a card with its integer
// version, envelopes, error codes): what uses the server in process gets the contract with it.
@_exported public import CardAPIContract
