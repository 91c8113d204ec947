import CardModels
import Testing

@testable import CardScanCore

/// A Korean card's name chosen between the photo's two readings (``NameReadings``).
@Suite("A Korean name between two readings")
struct NameReadingTests {
    typealias Reading = NameReadings.Reading

    static func reading(_ name: String, _ confidence: Double?, others: [String] = []) -> Reading {
        Reading(name: name, confidence: confidence, others: others)
    }

    @Test(
        arguments: [
            // The first reading found none on the card: the second's is taken.
            (nil, reading("최수아", 92), true),
            (reading("Sua Choi", nil), reading("최수아", 92), true),
            (reading("", nil), reading("최수아", 92), true),
            // A syllable lost in either.
            (reading("오승", 93), reading("오승현", 90), true),
            (reading("조도윤", 92), reading("조도", 96), false),
            // More confidence wins; a tie keeps the first.
            (reading("이서면", 25), reading("이서연", 93), true),
            (reading("윤지위", 93), reading("윤지우", 93), false),
            (reading("윤지우", 93), reading("윤지우", 99), false),
            // The company taken for the name, in either reading.
            (reading("경하은", 93, others: ["새벽전자"]), reading("새벽전자", 95), false),
            (reading("정예준", 93, others: ["㈜미래에너지"]), reading("미래에너지", 95), false),
            (reading("새벽전자", 89), reading("최수아", 92, others: ["새벽전자"]), true),
            // Only Hangul names of 2–5 syllables, read on the card, over a Hangul one.
            (reading("Ada Lovelace", 90), reading("에이다", 95), false),
            (reading("이서면", 25), reading("Lee Seoyeon", 95), false),
            (reading("이서면", 25), reading("서울특별시강남구", 95), false),
            (reading("이서면", 25), reading("이서연", nil), false),
        ] as [(Reading?, Reading, Bool)])
    func choice(first: Reading?, second: Reading, expected: Bool) {
        #expect(NameReadings.prefersSecond(first: first, second: second) == expected)
    }

    @Test("the second reading's name is taken, and the first's misreading goes back to its own field")
    func extraction() throws {
        // As Tesseract read a card at 1,500 pixels: the large name missed, the company above it
        // taken for the name.
        let first = page([
            Row("새벽전자", 30), Row("대리", 24), Row("031-127-1466"), Row("Email: sua.choi@mail.saebyeok.sm"),
        ])
        // And at 1,100 pixels: the name read, the small text less well.
        let second = page([Row("새벽전자", 30), Row("최수아", 56), Row("대리", 24), Row("031-127-1466")])
        let alone = CardFieldExtractor().extract(from: first)
        #expect(alone.fields.name == "새벽전자")
        let card = CardFieldExtractor().extract(from: first, nameReading: second)
        #expect(card.fields.name == "최수아")
        #expect(card.fields.company == "새벽전자")
        #expect(card.fields.title == "대리")
        #expect(card.fields.email == "sua.choi@mail.saebyeok.sm")
        let note = try #require(card.notes.first { $0.field == "name" })
        #expect(note.text.contains("read as “새벽전자”; read again at a smaller scale"), "\(note)")
    }

    @Test("a second reading that agrees, or has no better name, changes nothing")
    func agreeing() {
        let first = page([Row("김민준", 56), Row("팀장", 24), Row("minjun.kim@seouldatalab.co.kr")])
        let card = CardFieldExtractor().extract(from: first)
        #expect(CardFieldExtractor().extract(from: first, nameReading: first) == card)
        let empty = OCRPage(width: 1500, height: 850, lines: [])
        #expect(CardFieldExtractor().extract(from: first, nameReading: empty) == card)
    }
}
