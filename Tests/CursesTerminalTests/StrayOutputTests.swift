import Testing

@testable import CursesTerminal

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Stray output redirect")
struct StrayOutputTests {
    private func temporaryPath() -> String {
        "/tmp/cursesterminal-stray-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).log"
    }

    private func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }

    private func readAvailable(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }

    private func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        return readAvailable(descriptor)
    }

    @Test("Writes go to the file while redirected and back to the descriptor after")
    func redirects() throws {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer { for end in pipeEnds { close(end) } }
        let (reader, writer) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(reader, F_SETFL, O_NONBLOCK)
        let path = temporaryPath()
        defer { unlink(path) }

        var stray = try StrayOutput(path: path, descriptors: [writer])
        #expect(stray.original(of: writer) >= 0)
        write("stray", to: writer)
        stray.detach()
        write("visible", to: writer)
        #expect(readAvailable(reader) == "visible")
        stray.attach()
        write(" again", to: writer)
        stray.end()
        write("back", to: writer)
        #expect(readAvailable(reader) == "back")
        #expect(contents(of: path) == "stray again")

        var status = stat()
        try #require(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test("An unwritable path is a clear error and redirects nothing")
    func unwritable() {
        #expect(
            throws: CursesTerminalError.cannotOpenStrayOutput(
                path: "/nonexistent/dir/x.log", reason: "No such file or directory")
        ) {
            _ = try StrayOutput(path: "/nonexistent/dir/x.log", descriptors: [STDERR_FILENO])
        }
        let description = CursesTerminalError.cannotOpenStrayOutput(path: "/x", reason: "denied").description
        #expect(description.contains("Choose a writable path"))
    }
}
