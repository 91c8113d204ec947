import Foundation
import Testing

@testable import cardwallet

/// `offline — cards as of <time>` reads a 24-hour clock, with the date when it is not today.
@Suite struct OfflineTimeTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// 2026-11-24 15:18:40 UTC.
    static let afternoon = Date(timeIntervalSince1970: 1_795_533_520)

    @Test func anAfternoonTimeTodayIsOnATwentyFourHourClock() {
        let text = OfflineTime.text(Self.afternoon, now: Self.afternoon.addingTimeInterval(600), calendar: Self.utc)
        #expect(text == "15:18")
    }

    @Test func anotherDayCarriesItsDate() {
        let text = OfflineTime.text(Self.afternoon, now: Self.afternoon.addingTimeInterval(86_400), calendar: Self.utc)
        #expect(text == "2026-11-24 15:18")
    }

    @Test func midnightIsZeroHundred() {
        let midnight = Date(timeIntervalSince1970: 1_795_478_400 + 5 * 60)
        #expect(OfflineTime.text(midnight, now: midnight, calendar: Self.utc) == "00:05")
    }
}
