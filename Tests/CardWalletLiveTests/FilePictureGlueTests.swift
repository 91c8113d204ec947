import Foundation
import TestSupport
import Testing

@testable import CardWalletLive
@testable import CardWalletUI

/// The add form's picture of a file on this machine, through the performer: made without the
/// server, a short sentence for a file that is missing or not an image.
@Suite(.serialized)
struct FilePictureGlueTests {
    @Test func aLocalPhotoBecomesHalfBlocksAndABadFileASentence() async throws {
        try await GlueHarness.with { harness in
            // Not logged in: nothing is sent for a file's picture.
            let performer = harness.performer()
            let path = harness.folder.path("face.png")
            try ImageFixtures.png.write(to: URL(fileURLWithPath: path))
            let box = PictureBox(columns: 20, rows: 10)
            let shown = try await performer.perform(.filePicture(path: path, box: box)).get()
            guard case .picture(let picture) = shown, case .cells(let rows) = picture.content else {
                Issue.record("not cells: \(shown)")
                return
            }
            #expect(picture.size.columns <= 20 && picture.size.rows <= 10 && !rows.isEmpty)
            #expect(rows.allSatisfy { $0.count == picture.size.columns && $0.allSatisfy { $0.character == "▀" } })

            let missing = await performer.perform(.filePicture(path: harness.folder.path("nowhere.jpg"), box: box))
            guard case .failure(let gone) = missing else {
                Issue.record("a missing file got a picture: \(missing)")
                return
            }
            #expect(gone.message.hasPrefix("No picture: ") && gone.message.hasSuffix("nowhere.jpg cannot be read."))

            let text = harness.folder.path("notes.jpg")
            try Data("not a photo".utf8).write(to: URL(fileURLWithPath: text))
            let broken = await performer.perform(.filePicture(path: text, box: box))
            guard case .failure(let bad) = broken else {
                Issue.record("a text file got a picture: \(broken)")
                return
            }
            #expect(bad.message.hasSuffix("notes.jpg is not a PNG or JPEG that can be shown."))
        }
    }
}
