import Foundation

/// vobject (PyPI), the Python vCard library khard and vdirsyncer's users run, timed in its own
/// process on the same file: parse (`readComponents`, file read included) and export
/// (`serialize` of every card).
enum Vobject {
    /// One round's times, in seconds (wall clock and CPU), and what it read.
    struct Round: Decodable {
        var cards: Int
        var parse: Double
        var export: Double
        var parseCPU: Double
        var exportCPU: Double
        /// Cards vobject read but could not serialize.
        var failed: Int?
    }

    static let script = """
        import json, sys, time
        import vobject
        path = sys.argv[1]
        # The realistic corpus needs allowQP (vobject stops at a quoted-printable soft break
        # without it) and errors="replace" (a naive writer's fold splits UTF-8 sequences).
        allow_qp = len(sys.argv) > 2 and sys.argv[2] == "allowQP"
        start, start_cpu = time.perf_counter(), time.process_time()
        with open(path, encoding="utf-8", errors="replace") as handle:
            cards = list(vobject.readComponents(handle.read(), allowQP=allow_qp))
        parsed, parsed_cpu = time.perf_counter(), time.process_time()
        # vobject cannot serialize some cards it read (a 2.1 base64 photo, a comma in a 2.1 ORG):
        # they are counted, not fatal.
        parts, failed = [], 0
        for card in cards:
            try:
                parts.append(card.serialize())
            except Exception:
                failed += 1
        text = "".join(parts)
        done, done_cpu = time.perf_counter(), time.process_time()
        print(json.dumps({"cards": len(cards), "parse": parsed - start, "export": done - parsed,
                          "parseCPU": parsed_cpu - start_cpu, "exportCPU": done_cpu - parsed_cpu, "bytes": len(text),
                          "failed": failed}))
        """

    /// Why vobject cannot run here, or `nil` when it can.
    static func unavailable() -> String? {
        guard let python = python() else { return "python3 not found" }
        let (status, _) = (try? Spawn.captured(python, ["-c", "import vobject"])) ?? (1, "")
        return status == 0 ? nil : "vobject not installed (pip install -r scripts/requirements-interop.txt)"
    }

    /// One round on `file`, in a fresh process (`allowQP`: read quoted-printable soft breaks).
    static func round(file: String, folder: TemporaryFolder, allowQP: Bool = false) throws -> Round {
        let scriptPath = folder.path + "/vobject-round.py"
        if !FileManager.default.fileExists(atPath: scriptPath) {
            try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        }
        guard let python = python() else { throw BenchError("python3 not found") }
        let (status, output) = try Spawn.captured(python, [scriptPath, file] + (allowQP ? ["allowQP"] : []))
        guard status == 0, let line = output.split(separator: "\n").last,
            let round = try? JSONDecoder().decode(Round.self, from: Data(line.utf8))
        else {
            throw BenchError("the vobject round on \(file) exited with status \(status)")
        }
        return round
    }

    static func python() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
