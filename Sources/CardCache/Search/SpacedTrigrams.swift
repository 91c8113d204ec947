import GRDB
import GRDBSQLite

/// The FTS5 auxiliary function `cardwallet_spaced(cardSearch, offset₁, offset₂, …)` that lets a
/// long substring be looked for with a few trigrams instead of all of them (docs/Cache.md,
/// *Search*).
///
/// A phrase of n characters is n − 2 overlapping trigrams, and FTS5 walks the document list and
/// the positions of every one of them: “sourdough”, in 61,511 of 100,000 cards, costs seven
/// such walks. Trigrams every third character (`sou`, `rdo`, `ugh`) cover the same text, so
/// the index is asked for the rows holding all of them (an `AND` of single trigrams, no
/// positions compared), and this function keeps the rows where they sit in one column at
/// exactly those distances apart: the same rows as the whole phrase, for a third of the walks.
///
/// The first `1 + offsets` phrases of the query are those trigrams (the first at offset 0);
/// any later phrase (the phone number's digits) counts wherever it is. The answer is the
/// lowest column that matches, or -1 when the trigrams are only scattered over the row.
enum SpacedTrigrams {
    /// The function's name in SQL.
    static let name = "cardwallet_spaced"

    /// Adds the function to a connection (every connection of the pool, as it opens).
    static func register(_ db: Database) throws {
        let api = UnsafeMutablePointer(mutating: FTS5.api(db))
        guard let create = api.pointee.xCreateFunction else {
            throw DatabaseError(message: "FTS5 cannot take auxiliary functions")
        }
        let code = create(api, name, nil, spaced, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot add \(name) to FTS5")
        }
    }
}

/// The function itself: a C callback, so it captures nothing and allocates nothing (it runs
/// once per candidate row).
private let spaced: fts5_extension_function = { api, fts, context, count, values in
    guard let api = api?.pointee, let fts, let phraseFirst = api.xPhraseFirst, let phraseNext = api.xPhraseNext,
        let phraseCount = api.xPhraseCount
    else {
        sqlite3_result_int(context, -1)
        return
    }
    let spacedCount = count > 0 ? count + 1 : 0
    var best = Int32.max
    var iterator = Fts5PhraseIter()
    var column: Int32 = 0
    var offset: Int32 = 0
    // Phrases after the spaced trigrams match anywhere.
    var phrase = spacedCount
    while phrase < phraseCount(fts) {
        _ = phraseFirst(fts, phrase, &iterator, &column, &offset)
        while column >= 0 {
            best = min(best, column)
            phraseNext(fts, &iterator, &column, &offset)
        }
        phrase += 1
    }
    guard spacedCount > 0 else {
        sqlite3_result_int(context, best == .max ? -1 : best)
        return
    }
    var first = Fts5PhraseIter()
    var firstColumn: Int32 = 0
    var start: Int32 = 0
    _ = phraseFirst(fts, 0, &first, &firstColumn, &start)
    // Instances come in column order, then offset order.
    while firstColumn >= 0 && firstColumn < best {
        var all = true
        for other in 1..<spacedCount {
            let wanted = start + sqlite3_value_int(values?[Int(other - 1)])
            var found = false
            _ = phraseFirst(fts, other, &iterator, &column, &offset)
            while column >= 0 && (column < firstColumn || (column == firstColumn && offset <= wanted)) {
                if column == firstColumn && offset == wanted {
                    found = true
                    break
                }
                phraseNext(fts, &iterator, &column, &offset)
            }
            if !found {
                all = false
                break
            }
        }
        if all {
            best = firstColumn
            break
        }
        phraseNext(fts, &first, &firstColumn, &start)
    }
    sqlite3_result_int(context, best == .max ? -1 : best)
}
