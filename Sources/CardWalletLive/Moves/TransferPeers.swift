public import CardBackend
public import CardCache
import CardModels
import Foundation
import Synchronization

/// Finds the wallet of a transfer's target book — another book, maybe of another account —
/// for the outbox replay that carries a move, a copy or a merge on (``Bookshelf`` is one).
public protocol TransferPeers: Sendable {
    /// The wallet of the book `target` names, through its cache.
    ///
    /// - Throws: ``TransferTargetGone`` when no stored account has that book any more.
    func wallet(for target: TransferTarget) async throws -> CachedWallet
}

/// The book a transfer goes to is not among the stored accounts' any more (logged out, the book
/// deleted on its server): the transfer cannot go on; the card stays where it is.
public struct TransferTargetGone: BackendFailure {
    /// The book.
    public var target: TransferTarget
    public var failureKind: BackendFailureKind { .notFound }
    public var description: String {
        "The book “\(TerminalText.escaped(target.label))” (\(TerminalText.escaped(target.account))) is not among the "
            + "stored accounts' books any more: the card stays where it is."
    }
}

/// A replay that meets a transfer without being told how to reach other books (a wallet used
/// on its own): the transfer waits in the outbox for a replay that can (`cardwallet sync`, the
/// interface).
struct TransferPeersMissing: Error, CustomStringConvertible {
    var description: String { "a move, copy or merge waits for a replay that can reach the other book" }
}

extension Bookshelf: TransferPeers {
    public func wallet(for target: TransferTarget) async throws -> CachedWallet {
        var book = knownBooks.first {
            $0.walletKey == target.walletKey && $0.user.lowercased() == target.user.lowercased()
        }
        if book == nil {
            book = await books().first {
                $0.walletKey == target.walletKey && $0.user.lowercased() == target.user.lowercased()
            }
        }
        guard let book else { throw TransferTargetGone(target: target) }
        return try await wallet(for: book)
    }
}

extension WalletBook {
    /// The book as a transfer's target.
    public var transferTarget: TransferTarget {
        TransferTarget(account: account, walletKey: walletKey, user: user, label: label)
    }
}

/// What the transfers of one replay left in their targets, by outbox entry: for the command or
/// the interface that asked for a transfer, to name the card where it went
/// (``CachedWallet/transferWatch``).
final class TransferWatch: Sendable {
    private let written = Mutex<[Int64: TransferWritten]>([:])

    /// Transfer entry `entryID` is done, as `order` says.
    func done(_ entryID: Int64, _ order: TransferOrder) {
        guard let card = order.written else { return }
        written.withLock { $0[entryID] = card }
    }

    /// The card transfer entry `entryID` wrote, when it is done.
    func written(of entryID: Int64) -> TransferWritten? {
        written.withLock { $0[entryID] }
    }
}
