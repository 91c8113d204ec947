import Foundation
import Testing

@testable import CardDAV

/// `REV` and `getlastmodified`, read by hand in every form servers and exporters write them.
struct DAVDatesTests {
    private static let morning = Date(timeIntervalSince1970: 1_795_855_500)  // 2026-11-28 08:45 UTC

    @Test(
        "REV in its basic and extended forms, with a zone or an offset",
        arguments: [
            "20261128T084500Z", "2026-11-28T08:45:00Z", "20261128T094500+0100", "2026-11-28T03:45:00-05:00",
            "2026-11-28T08:45:00.250Z", " 20261128T084500Z ", "20261128T084500",
        ])
    func iso(text: String) {
        #expect(DAVDates.iso(text) == Self.morning)
    }

    @Test("a date alone is midnight UTC; leap days count")
    func dateAlone() {
        #expect(DAVDates.iso("20240229") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(DAVDates.iso("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(DAVDates.iso("1969-12-31T23:00:00Z") == Date(timeIntervalSince1970: -3600))
    }

    @Test(
        "anything else is no date",
        arguments: [
            "", "2026", "20261328T084500Z", "20230229", "20261128T254500Z", "20261128T0845", "20261128T084500Q",
            "20261128T084500+01:7", "2026-11-28T08:45:00Zjunk", "tomorrow", "٢٠٢٦١١٢٨",
        ])
    func notDates(text: String) {
        #expect(DAVDates.iso(text) == nil)
    }

    @Test("HTTP dates (RFC 9110's preferred form) and nothing else")
    func http() {
        #expect(DAVDates.http("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(DAVResource.date(http: " Sat, 28 Nov 2026 08:45:00 GMT ") == Self.morning)
        for text in [
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 1994 08:49:37 GMT", "",
        ] {
            #expect(DAVDates.http(text) == nil, "\(text)")
        }
        #expect(DAVResource.date(http: nil) == nil)
    }
}
