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
        "com.example.myapp.hash.1",
        "com.example.myapp.hash.*",
        "other.export.x",
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
        "*",
        ".export.x",
        "mediajob..x",
        "com.exämple.x",
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

    @Test func aUniqueIdentifierReplacesThePatternsStarWithALowercaseUUID() throws {
        let id = UUID()
        let identifier = try TaskIdentifier("com.example.myapp.hash.*").unique(id: id)
        #expect(identifier.rawValue == "com.example.myapp.hash.\(id.uuidString.lowercased())")
        #expect(!identifier.isWildcard)
    }

    @Test func uniqueIdentifiersDifferFromCallToCall() throws {
        let pattern = try TaskIdentifier("mediajob.export.*")
        #expect(try pattern.unique() != pattern.unique())
    }

    @Test func onlyAPatternGivesUniqueIdentifiers() throws {
        #expect(throws: TaskContractError.notAPattern("com.example.one")) {
            try TaskIdentifier("com.example.one").unique()
        }
    }

    @Test(arguments: [
        ("com.example.*", "com.example.hash.*", true),
        ("com.example.hash.*", "com.example.*", true),
        ("com.example.hash.*", "com.example.hashes.*", false),
        ("com.example.hash.*", "com.example.hash.one", true),
        ("com.example.hash.one", "com.example.hash.one", true),
        ("com.example.hash.one", "com.example.hash.two", false),
        ("com.example.hash", "com.example.hash.*", false),
    ])
    func patternsOverlapWhenOneIdentifierMatchesBoth(first: String, second: String, overlap: Bool) throws {
        #expect(try TaskIdentifier(first).overlaps(TaskIdentifier(second)) == overlap)
        #expect(try TaskIdentifier(second).overlaps(TaskIdentifier(first)) == overlap)
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
        let identifier = try TaskIdentifier("mediajob.export.*").unique()
        let data = try JSONEncoder().encode(identifier)
        #expect(String(decoding: data, as: UTF8.self) == "\"\(identifier.rawValue)\"")
        #expect(try JSONDecoder().decode(TaskIdentifier.self, from: data) == identifier)
    }

    @Test func decodingRejectsInvalidText() {
        let data = Data("\"other..x\"".utf8)
        #expect(throws: TaskContractError.invalidIdentifier("other..x")) {
            try JSONDecoder().decode(TaskIdentifier.self, from: data)
        }
    }
}
