import Foundation
import Testing
import TaskContract

struct TaskSubtitleTests {
    @Test func thirtyCharactersAreAccepted() throws {
        let text = String(repeating: "a", count: 30)
        let subtitle = try TaskSubtitle(text)
        #expect(subtitle.text == text)
        #expect(subtitle.description == text)
        #expect(TaskSubtitle.maximumLength == 30)
    }

    @Test func thirtyOneCharactersAreRejected() {
        let text = String(repeating: "a", count: 31)
        #expect(throws: TaskContractError.subtitleTooLong(text)) {
            try TaskSubtitle(text)
        }
    }

    @Test func lengthCountsCharactersNotBytes() throws {
        let text = String(repeating: "é", count: 30)
        #expect(text.utf8.count > 30)
        #expect(try TaskSubtitle(text).text == text)
    }

    @Test func emptySubtitleIsAllowed() throws {
        let empty = String()
        #expect(try TaskSubtitle(empty).text == "")
    }

    @Test func literalSubtitleKeepsItsText() {
        let subtitle: TaskSubtitle = "encode 12/50"
        #expect(subtitle.text == "encode 12/50")
    }

    @Test func codableRoundTripKeepsTheText() throws {
        let text = "package 1 of 1"
        let subtitle = try TaskSubtitle(text)
        let data = try JSONEncoder().encode(subtitle)
        #expect(String(decoding: data, as: UTF8.self) == "\"package 1 of 1\"")
        #expect(try JSONDecoder().decode(TaskSubtitle.self, from: data) == subtitle)
    }

    @Test func decodingRejectsATooLongSubtitle() {
        let text = String(repeating: "x", count: 31)
        #expect(throws: TaskContractError.subtitleTooLong(text)) {
            try JSONDecoder().decode(TaskSubtitle.self, from: Data("\"\(text)\"".utf8))
        }
    }

    @Test func tooLongErrorSaysHowLongAndTheLimit() {
        let error = TaskContractError.subtitleTooLong(String(repeating: "x", count: 31))
        #expect(error.description.contains("31 characters"))
        #expect(error.description.contains("at most 30"))
    }
}
