import CardDAV
import Foundation
import Testing

/// Discovery, step by step: a root, a principal, an address book, the well-known URL,
/// redirects on and off the origin.
@Suite struct DiscoveryMachineTests {
    static let root = URL(string: "https://dav.example.com/")!
    static func url(_ path: String) -> URL { URL(string: "https://dav.example.com" + path)! }
    static func book(_ path: String, name: String? = nil) -> AddressBook {
        AddressBook(url: url(path), href: path, displayName: name, supportsSyncCollection: true)
    }

    @Test func fromTheRootThroughThePrincipalToTheBooks() {
        var machine = DiscoveryMachine(start: Self.root)
        #expect(machine.begin() == .inspect(Self.root))
        #expect(
            machine.receive(.inspected(.init(principal: Self.url("/principals/alice/"))))
                == .inspect(Self.url("/principals/alice/")))
        #expect(
            machine.receive(.inspected(.init(homes: [Self.url("/books/alice/")])))
                == .listBooks(home: Self.url("/books/alice/")))
        let books = [Self.book("/books/alice/contacts/"), Self.book("/books/alice/work/")]
        #expect(
            machine.receive(.listed(books))
                == .finish(
                    CardDAVAccount(
                        principal: Self.url("/principals/alice/"), homes: [Self.url("/books/alice/")], books: books)))
    }

    @Test func fromAPrincipalStraightToItsHome() {
        let principal = Self.url("/alice/")
        var machine = DiscoveryMachine(start: principal)
        #expect(machine.begin() == .inspect(principal))
        #expect(
            machine.receive(.inspected(.init(principal: principal, homes: [principal])))
                == .listBooks(home: principal))
        let books = [Self.book("/alice/contacts/")]
        #expect(
            machine.receive(.listed(books))
                == .finish(CardDAVAccount(principal: principal, homes: [principal], books: books)))
    }

    @Test func fromAnAddressBookItIsSelectedAndItsSiblingsListed() {
        let given = Self.book("/alice/work/", name: "Work")
        var machine = DiscoveryMachine(start: given.url)
        #expect(machine.begin() == .inspect(given.url))
        #expect(
            machine.receive(.inspected(.init(book: given, principal: Self.url("/alice/"))))
                == .inspect(Self.url("/alice/")))
        #expect(
            machine.receive(.inspected(.init(homes: [Self.url("/alice/")]))) == .listBooks(home: Self.url("/alice/")))
        let listed = [Self.book("/alice/contacts/"), Self.book("/alice/work/", name: "Work (listed)")]
        #expect(
            machine.receive(.listed(listed))
                == .finish(
                    CardDAVAccount(
                        principal: Self.url("/alice/"), homes: [Self.url("/alice/")], books: listed,
                        selected: listed[1])))
    }

    @Test func anAddressBookWithoutAPrincipalIsTheOnlyBook() {
        let given = Self.book("/shared/book/")
        var machine = DiscoveryMachine(start: given.url)
        _ = machine.begin()
        #expect(
            machine.receive(.inspected(.init(book: given)))
                == .finish(CardDAVAccount(principal: nil, homes: [], books: [given], selected: given)))
    }

    @Test func nothingAtTheRootTriesTheWellKnownURLOnceAndFollowsItsRedirect() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        let wellKnown = Self.url("/.well-known/carddav")
        #expect(machine.receive(.missing(status: 404)) == .inspect(wellKnown))
        #expect(
            machine.receive(.redirected(to: Self.url("/remote.php/dav/"))) == .inspect(Self.url("/remote.php/dav/")))
        #expect(
            machine.receive(.inspected(.init(principal: Self.url("/remote.php/dav/principals/users/alice/"))))
                == .inspect(Self.url("/remote.php/dav/principals/users/alice/")))
        #expect(machine.receive(.missing(status: 404)) == .fail(.notCardDAV(server: "https://dav.example.com")))
    }

    @Test func aWellKnownURLThatLeadsBackWhereItBeganIsNotCardDAV() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        #expect(machine.receive(.missing(status: 405)) == .inspect(Self.url("/.well-known/carddav")))
        // Radicale's answer: 301 to "/", inspected already.
        #expect(machine.receive(.redirected(to: Self.root)) == .fail(.notCardDAV(server: "https://dav.example.com")))
    }

    @Test func aRedirectToAnotherOriginIsNotFollowed() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        _ = machine.receive(.missing(status: 404))
        let elsewhere = URL(string: "https://carddav.example.net/")!
        #expect(
            machine.receive(.redirected(to: elsewhere))
                == .fail(.foreignLocation(server: "https://dav.example.com", location: "https://carddav.example.net/")))
        var http = DiscoveryMachine(start: Self.root)
        _ = http.begin()
        #expect(
            http.receive(.redirected(to: URL(string: "http://dav.example.com/")!))
                == .fail(.foreignLocation(server: "https://dav.example.com", location: "http://dav.example.com/")))
    }

    @Test func aHomeOnAnotherHostOfTheDomainIsListedAndOneOfAnotherDomainIsNot() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        let partition = URL(string: "https://p42-contacts.example.com:443/123/carddavhome/")!
        #expect(
            machine.receive(.inspected(.init(principal: Self.root, homes: [partition]))) == .listBooks(home: partition))
        var other = DiscoveryMachine(start: Self.root)
        _ = other.begin()
        let elsewhere = URL(string: "https://p42-contacts.example.net/123/carddavhome/")!
        #expect(
            other.receive(.inspected(.init(principal: Self.root, homes: [elsewhere])))
                == .fail(.foreignLocation(server: "https://dav.example.com", location: elsewhere.absoluteString)))
    }

    @Test func redirectsAreBounded() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        for hop in 1...5 {
            #expect(machine.receive(.redirected(to: Self.url("/hop\(hop)/"))) == .inspect(Self.url("/hop\(hop)/")))
        }
        #expect(machine.receive(.redirected(to: Self.url("/hop6/"))) == .inspect(Self.url("/.well-known/carddav")))
    }

    @Test func aRefusedPasswordEndsDiscovery() {
        var machine = DiscoveryMachine(start: Self.root)
        _ = machine.begin()
        let refused = CardDAVError.credentialRefused(server: "https://dav.example.com", user: "alice")
        #expect(machine.receive(.failed(refused)) == .fail(refused))
    }

    @Test func aHomeWithNoBooksGivesAnAccountWithNone() {
        var machine = DiscoveryMachine(start: Self.url("/alice/"))
        _ = machine.begin()
        _ = machine.receive(.inspected(.init(homes: [Self.url("/alice/")])))
        #expect(
            machine.receive(.listed([]))
                == .finish(CardDAVAccount(principal: nil, homes: [Self.url("/alice/")], books: [])))
    }
}
