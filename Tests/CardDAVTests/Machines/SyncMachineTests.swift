import CardDAV
import Testing

/// The sync state machine, step by step: each test feeds it answers and checks the next action.
@Suite struct SyncMachineTests {
    static func v(_ href: String, _ etag: String?) -> ResourceVersion { ResourceVersion(href: href, etag: etag) }

    @Test func nothingChangedIsOneRequest() {
        var machine = SyncMachine(since: .sync("t1"))
        #expect(machine.start() == .requestChanges(since: "t1"))
        #expect(
            machine.receive(.changes(SyncPage(token: "t1")))
                == .finish(SyncDelta(kind: .changes, changed: [], removed: [], token: .sync("t1"), requests: 1)))
    }

    @Test func theFirstSyncIsAFullListingBySyncCollection() {
        var machine = SyncMachine(since: nil)
        #expect(machine.start() == .requestChanges(since: nil))
        let page = SyncPage(changed: [Self.v("/b/1.vcf", "e1"), Self.v("/b/2.vcf", "e2")], token: "t1")
        #expect(
            machine.receive(.changes(page))
                == .finish(
                    SyncDelta(kind: .fullListing, changed: page.changed, removed: [], token: .sync("t1"), requests: 1)))
    }

    @Test func aRefusedTokenFallsBackToTheETagListing() {
        var machine = SyncMachine(since: .sync("stale"))
        #expect(machine.start() == .requestChanges(since: "stale"))
        #expect(machine.receive(.tokenRefused) == .listETags)
        let listing = ETagListing(members: [Self.v("/b/1.vcf", "e1")], syncToken: "t9", ctag: "c9")
        #expect(
            machine.receive(.listing(listing))
                == .finish(
                    SyncDelta(
                        kind: .fullListing, changed: listing.members, removed: [], token: .sync("t9"),
                        fallback: .tokenRefused, requests: 2)))
    }

    @Test func aServerWithoutSyncCollectionListsAndKeepsTheCtag() {
        var machine = SyncMachine(since: nil, supportsSyncCollection: false)
        #expect(machine.start() == .listETags)
        let listing = ETagListing(members: [Self.v("/b/1.vcf", "e1")], ctag: "c1")
        #expect(
            machine.receive(.listing(listing))
                == .finish(
                    SyncDelta(
                        kind: .fullListing, changed: listing.members, removed: [], token: .ctag("c1"), requests: 1)))
    }

    @Test func anUnchangedCtagIsOneRequestAndAChangedOneLists() {
        var unchanged = SyncMachine(since: .ctag("c1"), supportsSyncCollection: false)
        #expect(unchanged.start() == .readCollectionTag)
        #expect(
            unchanged.receive(.collectionTag(ctag: "c1", syncToken: nil))
                == .finish(SyncDelta(kind: .changes, changed: [], removed: [], token: .ctag("c1"), requests: 1)))

        var changed = SyncMachine(since: .ctag("c1"), supportsSyncCollection: false)
        #expect(changed.start() == .readCollectionTag)
        #expect(changed.receive(.collectionTag(ctag: "c2", syncToken: nil)) == .listETags)
        #expect(
            changed.receive(.listing(ETagListing(members: [], ctag: "c2")))
                == .finish(
                    SyncDelta(
                        kind: .fullListing, changed: [], removed: [], token: .ctag("c2"),
                        fallback: .collectionChanged, requests: 2)))
    }

    @Test func aReportTheServerDoesNotOfferFallsBack() {
        var machine = SyncMachine(since: .sync("t1"))
        _ = machine.start()
        #expect(machine.receive(.syncUnavailable(status: 501)) == .listETags)
        guard case .finish(let delta) = machine.receive(.listing(ETagListing(members: []))) else {
            Issue.record("no finish")
            return
        }
        #expect(delta.fallback == .syncUnsupported(status: 501))
        #expect(delta.token == nil)
    }

    /// RFC 6578 §3.6: a truncated answer (507) is continued from the token it carries; the pages
    /// merge so that each href appears once, in its last state.
    @Test func truncatedAnswersAreContinuedAndMerged() {
        var machine = SyncMachine(since: .sync("t0"))
        #expect(machine.start() == .requestChanges(since: "t0"))
        let first = SyncPage(
            changed: [Self.v("/b/1.vcf", "a"), Self.v("/b/2.vcf", "a")], removed: ["/b/3.vcf"], token: "t1",
            truncated: true)
        #expect(machine.receive(.changes(first)) == .requestChanges(since: "t1"))
        let second = SyncPage(
            changed: [Self.v("/b/2.vcf", "b"), Self.v("/b/3.vcf", "b")], removed: ["/b/1.vcf"], token: "t2")
        #expect(
            machine.receive(.changes(second))
                == .finish(
                    SyncDelta(
                        kind: .changes, changed: [Self.v("/b/2.vcf", "b"), Self.v("/b/3.vcf", "b")],
                        removed: ["/b/1.vcf"], token: .sync("t2"), requests: 2)))
    }

    @Test func truncationWithoutProgressEndsInTheListing() {
        var machine = SyncMachine(since: .sync("t0"))
        _ = machine.start()
        #expect(machine.receive(.changes(SyncPage(token: "t1", truncated: true))) == .requestChanges(since: "t1"))
        #expect(machine.receive(.changes(SyncPage(token: "t1", truncated: true))) == .listETags)

        var bounded = SyncMachine(since: .sync("t0"), maximumRounds: 3)
        _ = bounded.start()
        #expect(bounded.receive(.changes(SyncPage(token: "t1", truncated: true))) == .requestChanges(since: "t1"))
        #expect(bounded.receive(.changes(SyncPage(token: "t2", truncated: true))) == .requestChanges(since: "t2"))
        #expect(bounded.receive(.changes(SyncPage(token: "t3", truncated: true))) == .listETags)
    }

    @Test func anAnswerWithoutATokenFallsBack() {
        var machine = SyncMachine(since: .sync("t0"))
        _ = machine.start()
        #expect(machine.receive(.changes(SyncPage(changed: [Self.v("/b/1.vcf", "a")], token: nil))) == .listETags)
    }

    @Test func failuresEndTheSync() {
        var machine = SyncMachine(since: .sync("t0"))
        _ = machine.start()
        let error = CardDAVError.credentialRefused(server: "https://dav.example", user: "alice")
        #expect(machine.receive(.failed(error)) == .fail(error))
        #expect(machine.receive(.tokenRefused) != .listETags)
    }

    @Test func anAnswerOutOfTurnIsRefused() {
        var machine = SyncMachine(since: .sync("t0"))
        _ = machine.start()
        guard case .fail(let error) = machine.receive(.listing(ETagListing(members: []))) else {
            Issue.record("accepted a listing it did not ask for")
            return
        }
        #expect(!error.isNetworkFailure)
    }

    // MARK: The caller's diff

    @Test func planFetchesWhatDiffersAndRemovesWhatIsGone() {
        let known = ["/b/1.vcf": "a", "/b/2.vcf": "a", "/b/3.vcf": "a"]
        let listing = SyncDelta(
            kind: .fullListing, changed: [Self.v("/b/1.vcf", "a"), Self.v("/b/2.vcf", "b"), Self.v("/b/4.vcf", "a")],
            removed: [], token: nil, requests: 1)
        let plan = listing.plan(known: known)
        #expect(plan.fetch == ["/b/2.vcf", "/b/4.vcf"])
        #expect(plan.remove == ["/b/3.vcf"])

        let changes = SyncDelta(
            kind: .changes, changed: [Self.v("/b/1.vcf", "a"), Self.v("/b/5.vcf", nil)],
            removed: ["/b/2.vcf", "/b/9.vcf"], token: .sync("t"), requests: 1)
        let incremental = changes.plan(known: known)
        #expect(incremental.fetch == ["/b/5.vcf"])
        #expect(incremental.remove == ["/b/2.vcf"])
    }

    @Test func tokensKeepTheirKindThroughTheirRawValue() {
        #expect(
            CardDAVSyncToken(rawValue: CardDAVSyncToken.sync("http://x/ns/sync/1").rawValue)?.serverToken
                == "http://x/ns/sync/1")
        #expect(CardDAVSyncToken(rawValue: "ctag:\"abc\"")?.collectionTag == "\"abc\"")
        #expect(CardDAVSyncToken(rawValue: "something else") == nil)
    }
}
