// The one function that makes untrusted text safe for a terminal (`TerminalText.escaped`)
// lives in the lowest layer, `TextSafety`, so the logger plugin can use it too; every layer
// that imports the card models gets it with them.
@_exported public import TextSafety
