import CardModels
import Testing

@Suite struct IdempotencyKeyTests {
    @Test func aFreshKeyIsAUUIDSentAsAStructuredFieldString() throws {
        let key = IdempotencyKey()
        #expect(key.text.count == 36 && key != IdempotencyKey())
        #expect(key.headerValue == "\"\(key.text)\"")
        #expect(IdempotencyKey(headerValue: key.headerValue) == key)
    }

    @Test(arguments: [
        ("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"", "8e03978e-40d5-43e8-bc93-6894a57f9324"),
        ("8e03978e", "8e03978e"), ("  \"k\"\t", "k"),
        ("!#$%&'()*+,-./:;<=>?@[]^_`{|}~", "!#$%&'()*+,-./:;<=>?@[]^_`{|}~"),
    ])
    func headerValuesThatAreKeys(value: String, text: String) {
        #expect(IdempotencyKey(headerValue: value)?.text == text)
    }

    @Test(arguments: [
        "", "\"\"", "a b", "\"a\\\"b\"", "\"a", "ключ", "a\u{0}b", "\"k\";param=1", "\"a\", \"b\"",
        String(repeating: "k", count: 256),
    ])
    func headerValuesThatAreNot(value: String) {
        #expect(IdempotencyKey(headerValue: value) == nil, "\(value)")
    }

    @Test func theLongestKeyIs255Characters() {
        #expect(IdempotencyKey(String(repeating: "k", count: 255)) != nil)
        #expect(IdempotencyKey(String(repeating: "k", count: 256)) == nil)
    }
}
