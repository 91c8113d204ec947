import CardModels
import Testing

@Suite struct TimeSpanTests {
    @Test(arguments: [
        ("200ms", Int64(200)), ("30s", 30_000), ("5m", 300_000), ("1h", 3_600_000), ("1d", 86_400_000),
        ("1h30m", 5_400_000), ("1.5s", 1500), ("0", 0), ("0s", 0), (" 2M ", 120_000), ("1m30s250ms", 90_250),
    ])
    func parsesWhatPeopleType(text: String, milliseconds: Int64) throws {
        #expect(try TimeSpan(parsing: text).milliseconds == milliseconds)
    }

    @Test(arguments: ["", "5", "abc", "5x", "-5s", "1.5.5s", "0.1ms", "3651d", "5 m", "s", "5mins", "1sm", "ms5"])
    func refusesNonsenseWithAReason(text: String) {
        #expect(throws: TimeSpanError.self) { try TimeSpan(parsing: text) }
        #expect(TimeSpan(text) == nil)
    }

    @Test func errorSaysWhatToWrite() {
        let error = #expect(throws: TimeSpanError.self) { try TimeSpan(parsing: "5") }
        #expect(error?.description.contains("has no unit") == true)
        #expect(error?.description.contains("200ms, 30s, 5m, 1h or 1d") == true)
        let word = #expect(throws: TimeSpanError.self) { try TimeSpan(parsing: "5minutes") }
        #expect(word?.description.contains("“minutes” is not a unit") == true)
    }

    @Test(arguments: ["5m", "1d", "1m30s", "250ms", "0s", "1d2h3m4s5ms"])
    func descriptionRoundTrips(text: String) throws {
        let span = try TimeSpan(parsing: text)
        #expect(span.description == text)
        #expect(try TimeSpan(parsing: span.description) == span)
    }

    @Test func convertsToDurationAndSeconds() {
        #expect(TimeSpan.minutes(5).duration == .seconds(300))
        #expect(TimeSpan.milliseconds(1500).timeInterval == 1.5)
        #expect(TimeSpan(milliseconds: -5) == .zero)
        #expect(TimeSpan.seconds(30) < TimeSpan.minutes(1))
    }
}
