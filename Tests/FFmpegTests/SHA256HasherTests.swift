import FFmpeg
import Foundation
import Testing

@Suite struct SHA256HasherTests {
    let fixtures = Fixtures.shared

    @Test func theDigestOfABCIsTheStandardOne() {
        #expect(SHA256Hasher.hex(of: Data("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func theDigestOfNothingIsTheStandardOne() {
        #expect(SHA256Hasher().finalize() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func feedingInPiecesGivesTheSameDigestAsAtOnceAndFinalizeStartsOver() {
        let hasher = SHA256Hasher()
        hasher.update(Data("a".utf8))
        "bc".utf8CString.withUnsafeBytes { hasher.update(bytes: $0.baseAddress!, count: 2) }
        #expect(hasher.finalize() == SHA256Hasher.hex(of: Data("abc".utf8)))
        hasher.update(Data("abc".utf8))
        #expect(hasher.finalize() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func aFilesDigestMatchesTheDigestOfItsBytes() throws {
        #expect(try SHA256Hasher.hex(ofFile: fixtures.clip) == SHA256Hasher.hex(of: try fixtures.bytes(fixtures.clip)))
    }

    @Test func aMissingFileCannotBeHashed() throws {
        let error = try #require(throws: FFmpegError.self) { try SHA256Hasher.hex(ofFile: "/nonexistent/x.mp4") }
        #expect(error.kind == .readFailed)
        #expect(error.message.contains("/nonexistent/x.mp4"))
    }
}
