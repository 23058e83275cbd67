import EngineTestKit
import Foundation
import JobEngine
@testable import MediaJobs
import Testing

/// The self-test writes its result a unit at a time; the bytes must be those `JSONEncoder` gives
/// the same result (pretty, keys sorted), as before.
@Suite struct SelfTestResultTests {
    /// What `JSONEncoder` makes of the result, with the self-test's settings for published JSON.
    static func encoded(committed: [Int], executions: [Int]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let counts = Dictionary(uniqueKeysWithValues: executions.enumerated().filter { $0.element > 0 }
            .map { (String($0.offset), $0.element) })
        return try encoder.encode(SelfTestJob.Result(committed: committed, executions: counts))
    }

    static func written(committed: [Int], executions: [Int]) throws -> Data {
        let folder = TemporaryDirectory()
        let url = URL(fileURLWithPath: folder.path("result.json"))
        try SelfTestJob.Result.write(committed: committed, executions: executions, to: url)
        return try Data(contentsOf: url)
    }

    @Test(arguments: [1, 23, 5_000])
    func aResultWrittenAUnitAtATimeHasTheBytesJSONEncoderGives(units: Int) throws {
        // Some units started twice, one never (its key is left out), keys from "0" to beyond "10".
        let executions = (0..<units).map { $0 == units / 2 ? 0 : $0 % 7 == 3 ? 2 : 1 }
        let committed = Array(0..<units)
        let written = try Self.written(committed: committed, executions: executions)
        #expect(written == (try Self.encoded(committed: committed, executions: executions)))
        #expect(units < 5_000 || written.count > 1 << 16, "the largest result is written in several pieces")
    }

    @Test func aResultWithNothingInItHasTheBytesJSONEncoderGives() throws {
        #expect(try Self.written(committed: [], executions: [0, 0]) == (try Self.encoded(committed: [], executions: [0, 0])))
    }

    @Test func theLogOfUnitStartsIsCountedByUnitAndALastLineCutShortIsNot() throws {
        let folder = TemporaryDirectory()
        let workspace = Workspace(directory: folder.url)
        try Data("3\n1\n3\n0\n12\n1".utf8).write(to: SelfTestJob.executionLog(in: workspace))
        #expect(SelfTestJob.executions(in: workspace, units: 5) == [1, 1, 0, 2, 0], "unit 12 is not one of the 5")
    }
}
