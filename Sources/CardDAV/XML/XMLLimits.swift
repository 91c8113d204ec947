/// The most a DAV answer may hold before the XML reader stops with ``XMLFailure/Reason/limitExceeded(_:limit:)``.
///
/// The reader never builds a tree of the whole document (see ``XMLDocumentReader``), so memory
/// is bounded by the body (which the transport already caps: `LiveTransport` keeps at most
/// 32 MiB in memory) plus one child of the root at a time, which ``maximumSubtreeElements``
/// bounds. The defaults leave room for a vCard with a large photo in one text node and for a
/// multistatus of 100,000 responses, and refuse what only a hostile or broken server sends.
public struct XMLLimits: Sendable, Hashable {
    /// The largest document, in bytes. Default: 64 MiB (above the transport's 32 MiB, so the
    /// transport's own, clearer refusal comes first).
    public var maximumBytes: Int
    /// The deepest nesting of elements. Default: 64 (a multiget answer nests 6 deep).
    public var maximumDepth: Int
    /// The most elements in the whole document. Default: 4,000,000.
    public var maximumElements: Int
    /// The most elements in one child of the root (one `response`): what is held in memory at
    /// once. Default: 10,000.
    public var maximumSubtreeElements: Int
    /// The longest text of one element (character data and CDATA, after entity decoding), in
    /// bytes. Default: 32 MiB, so no vCard is refused for its size below the transport's cap.
    public var maximumTextBytes: Int
    /// The most attributes (namespace declarations included) on one element. Default: 256.
    public var maximumAttributes: Int
    /// The longest element or attribute name, in bytes. Default: 1,024.
    public var maximumNameBytes: Int

    /// The limits; every parameter has the documented default.
    public init(
        maximumBytes: Int = 64 << 20, maximumDepth: Int = 64, maximumElements: Int = 4_000_000,
        maximumSubtreeElements: Int = 10_000, maximumTextBytes: Int = 32 << 20, maximumAttributes: Int = 256,
        maximumNameBytes: Int = 1_024
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
        self.maximumSubtreeElements = maximumSubtreeElements
        self.maximumTextBytes = maximumTextBytes
        self.maximumAttributes = maximumAttributes
        self.maximumNameBytes = maximumNameBytes
    }
}
