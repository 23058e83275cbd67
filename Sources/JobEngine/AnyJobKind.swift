import Foundation
import TaskContract

/// A registered ``JobKind`` with its settings type erased to stored JSON.
struct AnyJobKind: Sendable {
    let name: String
    let defaultCosts: [Stage: Double]
    let maxChunksAtOnce: Int?
    let showsCountsInSubtitle: Bool
    let plan: @Sendable (Data) throws -> JobPlan
    /// The work key of stored settings: the kind's name and its work identity as canonical JSON.
    let workKey: @Sendable (Data) throws -> String
    /// Decodes stored settings once and returns what runs a chunk with them: decoding them for
    /// every chunk was a JSON parse per chunk.
    let chunkRunner: @Sendable (Data) throws -> @Sendable (PlannedChunk, JobContext) async throws -> String?
    let finalize: @Sendable (Data, PlannedChunks, JobContext) async throws -> URL
    private let specType: Any.Type
    /// The name of the kind's settings type, for errors.
    var specTypeName: String { "\(specType)" }

    init<Kind: JobKind>(_ kind: Kind) {
        name = kind.name
        defaultCosts = kind.defaultCosts
        maxChunksAtOnce = kind.maxChunksAtOnce
        showsCountsInSubtitle = kind.showsCountsInSubtitle
        specType = Kind.Spec.self
        plan = { try kind.plan(try Self.decode(Kind.Spec.self, from: $0)) }
        workKey = { [name = kind.name] in
            let identity = try kind.workIdentity(of: try Self.decode(Kind.Spec.self, from: $0))
            return "\(name)\n\(String(decoding: try Self.encode(identity), as: UTF8.self))"
        }
        chunkRunner = { data in
            let spec = try Self.decode(Kind.Spec.self, from: data)
            return { chunk, context in try await kind.run(chunk, of: spec, in: context) }
        }
        finalize = { spec, chunks, context in
            try await kind.finalize(try Self.decode(Kind.Spec.self, from: spec), chunks: chunks, in: context)
        }
    }

    /// Whether `Spec` is this kind's settings type.
    func accepts<Spec>(_: Spec.Type) -> Bool { specType == Spec.self }

    /// Encodes settings canonically (sorted keys), so equal settings give equal bytes.
    static func encode<Spec: Encodable>(_ spec: Spec) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(spec)
    }

    private static func decode<Spec: Decodable>(_ type: Spec.Type, from data: Data) throws -> Spec {
        try JSONDecoder().decode(type, from: data)
    }
}
