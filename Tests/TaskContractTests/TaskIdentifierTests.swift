import Foundation
import Testing
import TaskContract

struct TaskIdentifierTests {
    @Test(arguments: [
        "mediajob.export",
        "mediajob.export.6f9619ff-8b86-d011-b42d-00c04fc964ff",
        "mediajob.self_test.run-1",
        "mediajob.export.a.b.c",
        "mediajob.export.*",
    ])
    func wellFormedIdentifiersAreAccepted(_ text: String) throws {
        let identifier = try TaskIdentifier(text)
        #expect(identifier.rawValue == text)
        #expect(identifier.description == text)
    }

    @Test(arguments: [
        "",
        "mediajob",
        "mediajob.",
        "other.export.x",
        "MediaJob.export.x",
        "mediajob..x",
        "mediajob.export.",
        "mediajob.export x.y",
        "mediajob.export.a/b",
        "mediajob.export.*.x",
        "mediajob.export.x*",
    ])
    func malformedIdentifiersAreRejected(_ text: String) {
        #expect(throws: TaskContractError.invalidIdentifier(text)) {
            try TaskIdentifier(text)
        }
    }

    @Test func uniqueIdentifierNamesTheKindAndALowercaseUUID() throws {
        let id = UUID()
        let identifier = try TaskIdentifier.unique(kind: "export", id: id)
        #expect(identifier.rawValue == "mediajob.export.\(id.uuidString.lowercased())")
        #expect(identifier.kind == "export")
        #expect(!identifier.isWildcard)
    }

    @Test func uniqueIdentifiersDifferFromCallToCall() throws {
        let first = try TaskIdentifier.unique(kind: "export")
        let second = try TaskIdentifier.unique(kind: "export")
        #expect(first != second)
    }

    @Test func uniqueIdentifierRejectsAKindThatIsNotAComponent() {
        #expect(throws: TaskContractError.self) {
            try TaskIdentifier.unique(kind: "bad kind")
        }
        #expect(throws: TaskContractError.self) {
            try TaskIdentifier.unique(kind: "a.")
        }
    }

    @Test func kindIsTheComponentAfterThePrefix() throws {
        #expect(try TaskIdentifier("mediajob.transcode.abc").kind == "transcode")
        #expect(try TaskIdentifier("mediajob.selftest").kind == "selftest")
        #expect(try TaskIdentifier("mediajob.export.*").kind == "export")
    }

    @Test func wildcardMatchesAnySuffixOfItsKindOnly() throws {
        let pattern = try TaskIdentifier("mediajob.export.*")
        #expect(pattern.isWildcard)
        #expect(pattern.matches(try TaskIdentifier("mediajob.export.x")))
        #expect(pattern.matches(try TaskIdentifier("mediajob.export.x.y")))
        #expect(!pattern.matches(try TaskIdentifier("mediajob.exportx.y")))
        #expect(!pattern.matches(try TaskIdentifier("mediajob.export")))
        #expect(!pattern.matches(try TaskIdentifier("mediajob.render.x")))
    }

    @Test func theEmptySuffixAWildcardMustNotMatchCannotEvenBeNamed() {
        // `mediajob.export.` is what `matches` guards against with its length check; the
        // initializer refuses it first.
        #expect(throws: TaskContractError.invalidIdentifier("mediajob.export.")) {
            try TaskIdentifier("mediajob.export.")
        }
    }

    @Test func exactIdentifierMatchesOnlyItself() throws {
        let permitted = try TaskIdentifier("mediajob.export.one")
        #expect(permitted.matches(try TaskIdentifier("mediajob.export.one")))
        #expect(!permitted.matches(try TaskIdentifier("mediajob.export.one.two")))
        #expect(!permitted.matches(try TaskIdentifier("mediajob.export.on")))
    }

    @Test func codableRoundTripKeepsTheTextAsAJSONString() throws {
        let identifier = try TaskIdentifier.unique(kind: "export")
        let data = try JSONEncoder().encode(identifier)
        #expect(String(decoding: data, as: UTF8.self) == "\"\(identifier.rawValue)\"")
        #expect(try JSONDecoder().decode(TaskIdentifier.self, from: data) == identifier)
    }

    @Test func decodingRejectsInvalidText() {
        let data = Data("\"other.export.x\"".utf8)
        #expect(throws: TaskContractError.invalidIdentifier("other.export.x")) {
            try JSONDecoder().decode(TaskIdentifier.self, from: data)
        }
    }
}
