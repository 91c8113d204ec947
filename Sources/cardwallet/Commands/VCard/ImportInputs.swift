import CardModels
import CardVCard
import Foundation

/// What `import` reads: a file, every `.vcf` of a folder (a vdir), or standard input, each read
/// and mapped card by card.
struct ImportInputs {
    /// One input read.
    struct Read {
        /// Its name in messages: the path as given (`FILE:LINE`), or `stdin`.
        var name: String
        /// What was in it.
        var document: VCardDocument
    }

    /// The inputs, read.
    var reads: [Read]

    /// Reads `path` (`-` for standard input).
    ///
    /// - Parameters:
    ///   - path: a file, a folder, or `-`.
    ///   - importer: the mapping (with the server's image limit).
    ///   - progress: the progress line.
    /// - Throws: ``CommandFailure`` (exit 64) when the path names nothing readable.
    static func read(_ path: String, importer: VCardImporter, progress: Progress) throws -> ImportInputs {
        if path == "-" {
            let document = VCardDocument.read(
                source: FileByteSource(handle: .standardInput), importer: importer,
                progress: { progress.update($0, of: nil) })
            return ImportInputs(reads: [Read(name: "stdin", document: document)])
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandFailure.usage("\(TerminalText.escaped(path)): there is no such file or folder.")
        }
        let files: [String]
        if isFolder.boolValue {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw CommandFailure.usage(
                    "\(TerminalText.escaped(path)): the folder cannot be read (check its permissions).")
            }
            files = names.filter { $0.lowercased().hasSuffix(".vcf") && !$0.hasPrefix(".") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            if files.isEmpty {
                throw CommandFailure(
                    "\(TerminalText.escaped(path)): no .vcf file in this folder; nothing imported.",
                    status: CLIExitCode.dataError)
            }
        } else {
            files = [path]
        }
        var reads: [Read] = []
        for file in files {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw CommandFailure.usage(
                    "\(TerminalText.escaped(file)): the file cannot be read (check its permissions).")
            }
            defer { try? handle.close() }
            let document = VCardDocument.read(
                source: FileByteSource(handle: handle), importer: importer, progress: { progress.update($0, of: nil) })
            reads.append(Read(name: file, document: document))
        }
        return ImportInputs(reads: reads)
    }

    /// The cards of every input that was not refused, with their input's name.
    var cards: [SourcedCard] {
        reads.flatMap { read in read.document.cards.map { SourcedCard(file: read.name, card: $0) } }
    }

    /// The problems of every input that was not refused.
    var problems: [SourcedProblem] {
        reads.flatMap { read in read.document.problems.map { SourcedProblem(file: read.name, problem: $0) } }
    }

    /// Cards skipped beyond the problems kept (a file of thousands of broken cards).
    var unlistedProblems: Int {
        reads.reduce(0) { $0 + $1.document.skipped - $1.document.problems.count }
    }

    /// What the inputs held outside their cards (text around them, stray bytes), the first of
    /// each input.
    var warnings: [SourcedProblem] {
        reads.flatMap { read in read.document.warnings.map { SourcedProblem(file: read.name, problem: $0) } }
    }

    /// Such warnings beyond those kept.
    var unlistedWarnings: Int {
        reads.reduce(0) { $0 + $1.document.warningCount - $1.document.warnings.count }
    }

    /// The names of the inputs, in the order they were read.
    var names: [String] { reads.map(\.name) }

    /// The inputs refused whole, as `FILE: reason` lines.
    var refusals: [String] {
        reads.compactMap { read in read.document.refusal.map { "\(TerminalText.escaped(read.name)): \($0.reason)" } }
    }
}
