import JobEngine
import Testing

@Suite struct UnusableInputsTests {
    struct Unexpected: Error, Equatable {
        var index: Int
    }

    /// Items 2 and 5 are bad, item 7 throws something else, item 9 is bad after it.
    @Sendable static func check(_ index: Int) throws -> Int {
        switch index {
        case 2, 5, 9: throw ItemFailure(item: "item \(index)", reason: "is corrupt")
        case 7: throw Unexpected(index: index)
        default: return index * 10
        }
    }

    @Test func checkingConcurrentlyGivesTheResultsInTheItemsOrder() throws {
        let items = 3..<200
        #expect(try UnusableInputs.collectConcurrently(items) { $0 * 10 } == items.map { $0 * 10 })
        #expect(try UnusableInputs.collectConcurrently(0..<0) { $0 }.isEmpty)
    }

    @Test func checkingConcurrentlyNamesEveryBadItemInOrderAsTheSerialCheckDoes() throws {
        let serial = #expect(throws: UnusableInputs.self) { try UnusableInputs.collect(0..<7, Self.check) }
        let concurrent = #expect(throws: UnusableInputs.self) { try UnusableInputs.collectConcurrently(0..<7, Self.check) }
        #expect(concurrent?.failures.map(\.item) == ["item 2", "item 5"])
        #expect(concurrent == serial)
    }

    @Test func checkingConcurrentlyThrowsTheFirstOtherErrorInTheItemsOrder() throws {
        #expect(throws: Unexpected(index: 7)) { try UnusableInputs.collect(0..<12, Self.check) }
        #expect(throws: Unexpected(index: 7)) { try UnusableInputs.collectConcurrently(0..<12, Self.check) }
    }
}
