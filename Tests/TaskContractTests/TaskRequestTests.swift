import Foundation
import Testing
import TaskContract

struct TaskRequestTests {
    @Test func requestRejectsAWildcardIdentifier() throws {
        let pattern = try TaskIdentifier("mediajob.export.*")
        #expect(throws: TaskContractError.wildcardIdentifier("mediajob.export.*")) {
            try TaskRequest(identifier: pattern, title: "Exporting", subtitle: "render")
        }
    }

    @Test func requestKeepsWhatItWasGivenAndDefaultsToQueueing() throws {
        let identifier = try TaskIdentifier("mediajob.export.*").unique()
        let request = try TaskRequest(identifier: identifier, title: "Exporting Holiday", subtitle: "render 1/3")
        #expect(request.identifier == identifier)
        #expect(request.title == "Exporting Holiday")
        #expect(request.subtitle.text == "render 1/3")
        #expect(request.strategy == .queue)
        #expect(request.requiredResources.isEmpty)
    }

    @Test func requestSurvivesACodableRoundTrip() throws {
        let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.*").unique(), title: "Exporting", subtitle: "encode 2/9",
                                      strategy: .fail, requiredResources: .gpu)
        let decoded = try JSONDecoder().decode(TaskRequest.self, from: try JSONEncoder().encode(request))
        #expect(decoded == request)
    }

    @Test func decodingARequestRejectsAWildcardIdentifier() throws {
        let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.one"), title: "Exporting",
                                      subtitle: "render")
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            .replacingOccurrences(of: "mediajob.export.one", with: "mediajob.export.*")
        #expect(throws: TaskContractError.wildcardIdentifier("mediajob.export.*")) {
            try JSONDecoder().decode(TaskRequest.self, from: Data(json.utf8))
        }
    }
}
