import Foundation
import Synchronization

/// One host's gate, boxed so that an admitted request gives its slot back without looking its
/// host up again. Only ever read or changed with the owning ``Admission``'s lock held, which is
/// what makes it safe to share.
final class HostGateBox: @unchecked Sendable {
    let key: String
    var gate: AdmissionGate<UnsafeContinuation<HostGateBox?, Never>>

    init(key: String, limit: Int) {
        self.key = key
        self.gate = AdmissionGate(limit: limit)
    }
}

/// A slot an admitted request holds until it gives it back with ``Admission/leave(_:)``.
struct AdmissionSlot: Sendable {
    let box: HostGateBox
}

/// The gates of an ``Admission``, by host key.
struct AdmissionState {
    /// Idle gates are kept up to this many hosts, so the usual one-host client never makes and
    /// drops a gate per request; beyond it they are dropped when idle.
    static let keptGates = 16

    var gates: [String: HostGateBox] = [:]

    /// The gate of `key`, made if there is none.
    mutating func box(for key: String, limit: Int) -> HostGateBox {
        if let box = gates[key] { return box }
        let box = HostGateBox(key: key, limit: limit)
        gates[key] = box
        return box
    }

    /// Drops `box` if it is idle and there are many gates. Nobody else refers to an idle gate: a
    /// slot, a waiter or a hold keeps it busy.
    mutating func forgetIfIdle(_ box: HostGateBox) {
        if gates.count > Self.keptGates, box.gate.isIdle { gates[box.key] = nil }
    }
}

extension Admission {
    /// Takes a slot for `key` if one is free and nobody is ahead: the fast path, one lock.
    func tryEnter(_ key: String) -> AdmissionSlot? {
        state.withLock { state in
            let box = state.box(for: key, limit: slots)
            return box.gate.tryEnter() ? AdmissionSlot(box: box) : nil
        }
    }

    /// Waits in line for a slot for `key`.
    ///
    /// The continuation is unchecked (one allocation less per waiter): it is resumed exactly once,
    /// by whoever takes it out of the gate under the lock — an admission or the cancellation handler.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before it is admitted; it then
    ///   holds no slot.
    func enter(_ key: String) async throws -> AdmissionSlot {
        let id = nextWaiter.add(1, ordering: .relaxed).newValue
        let admitted = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<HostGateBox?, Never>) in
                let now: HostGateBox?? = state.withLock { state in
                    if Task.isCancelled { return .some(nil) }
                    let box = state.box(for: key, limit: slots)
                    if box.gate.tryEnter() { return box }
                    box.gate.enqueue(id, continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<HostGateBox?, Never>? in
                guard let box = state.gates[key], let waiter = box.gate.remove(id) else { return nil }
                state.forgetIfIdle(box)
                return waiter
            }
            waiter?.resume(returning: nil)
        }
        guard let admitted else { throw CancellationError() }
        return AdmissionSlot(box: admitted)
    }

    /// Gives `slot` back, admitting the next waiter.
    func leave(_ slot: AdmissionSlot) {
        let box = slot.box
        let admitted = state.withLock { state in
            let admitted = box.gate.leave()
            state.forgetIfIdle(box)
            return admitted
        }
        for waiter in admitted { waiter.resume(returning: box) }
    }

    /// The gate a URL belongs to: scheme, host and port, lowercased, without user information.
    /// A scan of the URL's bytes, so the request path pays no parsing.
    static func hostKey(for url: URL) -> String {
        var text = url.absoluteString
        return text.withUTF8 { hostKey(in: $0) }
    }

    private static func hostKey(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        var start = colon + 1
        // Skip the "//" that starts the authority.
        for _ in 0..<2 where start < bytes.count && bytes[start] == UInt8(ascii: "/") { start += 1 }
        var end = start
        var hostStart = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "@") { hostStart = end + 1 }
            end += 1
        }
        let isUpper = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        if hostStart == start, !bytes[..<end].contains(where: isUpper) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)  // the usual case
        }
        var key = Array(bytes[..<start])
        key.append(contentsOf: bytes[hostStart..<end])
        for index in key.indices where isUpper(key[index]) { key[index] += 32 }
        return String(decoding: key, as: UTF8.self)
    }
}
