public import CardBackend

/// An image file checked before upload (``CardBackend/ImageUpload``): the card API streams it
/// from disk.
public typealias ImageFile = ImageUpload

extension ImageUpload {
    /// The file name sent in the multipart part: `image.png` or `image.jpg`, so no local file
    /// name leaves the machine.
    public var uploadFileName: String {
        switch format {
        case .png: "image.png"
        case .jpeg: "image.jpg"
        }
    }
}
