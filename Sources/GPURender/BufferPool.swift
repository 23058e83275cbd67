import Vulkan

/// The buffers one renderer reuses from render to render, grown when a larger one is needed and
/// kept within a memory budget (all of them together).
final class BufferPool {
    /// What each buffer holds.
    enum Role: CaseIterable {
        case upload, source, work, horizontal, chromaHorizontal, packed, planes, download, horizontalWeights, verticalWeights

        /// Staging memory for what the host writes or reads; the weight tables are small and
        /// read by the shader straight from there.
        var placement: Buffer.Placement {
            switch self {
            case .upload, .download, .horizontalWeights, .verticalWeights: .staging
            default: .deviceLocal
            }
        }
    }

    private let device: Device
    /// The most bytes all buffers together may hold.
    let budget: Int
    private var buffers: [Role: Buffer] = [:]

    init(device: Device, budget: Int) {
        self.device = device
        self.budget = budget
    }

    /// Bytes held now.
    var allocatedBytes: Int { buffers.values.map(\.size).reduce(0, +) }

    /// Buffers of at least the given sizes (bytes, per role), reusing those big enough.
    /// - Throws: ``VulkanError/Kind/outOfMemory`` when the sizes together exceed the budget.
    func buffers(_ sizes: [Role: Int]) throws -> [Role: Buffer] {
        let needed = sizes.values.reduce(0, +)
        guard needed <= budget else {
            throw VulkanError(.outOfMemory, operation: "render",
                              reason: "the pictures need \(needed >> 20) MiB of device memory, over the budget of \(budget >> 20) MiB")
        }
        var grown = sizes.filter { role, size in (buffers[role]?.size ?? 0) < size }
        var held = buffers.filter { grown[$0.key] == nil }.values.map(\.size).reduce(0, +)
        if held + grown.values.reduce(0, +) > budget {
            // Let go of every buffer and make exactly what this render needs.
            buffers = [:]
            (grown, held) = (sizes, 0)
        }
        // Round up so that slightly larger pictures later reuse the buffers, where the budget allows.
        let rounds = held + grown.values.map { ($0 + 0xffff) & ~0xffff }.reduce(0, +) <= budget
        for (role, size) in grown {
            buffers[role] = nil
            buffers[role] = try Buffer(device: device, size: rounds ? (size + 0xffff) & ~0xffff : size, placement: role.placement)
        }
        return buffers.filter { sizes[$0.key] != nil }
    }
}
