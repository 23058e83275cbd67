import CShaders
import Foundation
import Vulkan

/// Renders batches of pictures on one Vulkan device by a ``RenderRecipe``: uploads them through
/// a staging buffer, runs the compute shaders (crop and turn, box shrink, Lanczos3, colour, and
/// RGB → YUV 4:2:0 for video), and downloads the results through another.
///
/// Pipelines are built once; buffers are kept and reused from batch to batch, within
/// ``memoryBudget``. Safe to share: renders from several threads take turns.
public final class GPURenderer: @unchecked Sendable {
    /// The device rendering.
    public let device: DeviceInfo
    /// The most device memory the renderer's buffers may hold, in bytes.
    public let memoryBudget: Int
    private let vulkan: Device
    private let recorder: CommandRecorder
    private let transform: ComputePipeline
    private let lanczos: ComputePipeline
    private let finish: ComputePipeline
    private let yuv420: ComputePipeline
    private let pool: BufferPool
    private let lock = NSLock()

    /// Opens `physical`, builds the pipelines and checks them with ``SelfTest``.
    /// - Parameter memoryBudget: bytes; default a quarter of the device-local memory, at most 2 GiB.
    public init(_ physical: PhysicalDevice, memoryBudget: Int? = nil) throws {
        device = physical.info
        self.memoryBudget = memoryBudget ?? Int(min(physical.info.deviceLocalMemoryBytes / 4, 2 << 30))
        vulkan = try Device(physical)
        recorder = try CommandRecorder(device: vulkan)
        transform = try Self.pipeline(vulkan, mj_shader_transform, TransformConstants.self)
        lanczos = try Self.pipeline(vulkan, mj_shader_lanczos, LanczosConstants.self, buffers: 3)
        finish = try Self.pipeline(vulkan, mj_shader_finish, FinishConstants.self)
        yuv420 = try Self.pipeline(vulkan, mj_shader_yuv420, YUVConstants.self)
        pool = BufferPool(device: vulkan, budget: self.memoryBudget)
    }

    private static func pipeline<Constants>(_ device: Device, _ shader: MJShader, _ constants: Constants.Type,
                                            buffers: Int = 2) throws -> ComputePipeline {
        try ComputePipeline(device: device, spirv: UnsafeBufferPointer(start: shader.words, count: shader.count), buffers: buffers,
                            pushConstantSize: MemoryLayout<Constants>.size)
    }

    /// Device memory the renderer's buffers hold now, in bytes.
    public var allocatedBytes: Int { lock.withLock { pool.allocatedBytes } }

    /// How many pictures of `recipe` fit in one batch within the memory budget and the device's
    /// largest storage buffer, at most `limit`.
    public func batchCapacity(for recipe: RenderRecipe, output: RenderOutput, limit: Int) -> Int {
        let perPicture = Self.sizes(recipe, output: output, count: 1)
        let byBudget = memoryBudget / max(1, perPicture.values.reduce(0, +))
        let byBuffer = Int(device.maxStorageBufferRange) / max(1, perPicture.values.max() ?? 1)
        return max(0, min(limit, byBudget, byBuffer))
    }

    /// Renders `count` pictures by `recipe`.
    /// - Parameters:
    ///   - fill: writes picture `i`'s pixels (`sourceWidth × channels` bytes a row, rows
    ///     back to back) at the pointer given.
    ///   - read: receives picture `i`'s result: RGBA rows, or planes as ``YUVLayout`` says.
    ///     Valid only during the call.
    /// - Throws: ``VulkanError`` (`outOfMemory` when the batch exceeds the budget or a buffer
    ///   the device's largest storage buffer), or what `fill` and `read` throw.
    public func render(_ recipe: RenderRecipe, count: Int, output: RenderOutput,
                       fill: (Int, UnsafeMutableRawPointer) throws -> Void,
                       read: (Int, UnsafeRawPointer) throws -> Void) throws {
        if let problem = recipe.problem {
            throw VulkanError(.callFailed, operation: "render", reason: problem)
        }
        guard count > 0 else { return }
        let sizes = Self.sizes(recipe, output: output, count: count)
        if let largest = sizes.values.max(), largest > Int(device.maxStorageBufferRange) {
            throw VulkanError(.outOfMemory, operation: "render",
                              reason: "the pictures need a \(largest >> 20) MiB buffer, over the device's limit of "
                                  + "\(device.maxStorageBufferRange >> 20) MiB")
        }
        try lock.withLock {
            let buffers = try pool.buffers(sizes)
            let sourceBytes = recipe.sourceWidth * recipe.sourceHeight * recipe.channels
            let upload = buffers[.upload]!.contents!
            for index in 0..<count { try fill(index, upload + index * sourceBytes) }
            let resultBytes = output.matrix == nil ? recipe.width * recipe.height * 4
                : YUVLayout(width: recipe.width, height: recipe.height).pictureBytes
            try recorder.submit { recording in
                try record(recipe, count: count, output: output, buffers: buffers, into: &recording)
            }
            let download = UnsafeRawPointer(buffers[.download]!.contents!)
            for index in 0..<count { try read(index, download + index * resultBytes) }
        }
    }

    private func record(_ recipe: RenderRecipe, count: Int, output: RenderOutput, buffers: [BufferPool.Role: Buffer],
                        into recording: inout Recording) throws {
        let sourceBytes = recipe.sourceWidth * recipe.sourceHeight * recipe.channels
        recording.copy(buffers[.upload]!, to: buffers[.source]!, size: ((count * sourceBytes) + 3) & ~3)
        let premultiply = recipe.channels == 4 && recipe.resizes
        let (shrink, shrunk) = (recipe.shrink, (width: recipe.shrunkWidth, height: recipe.shrunkHeight))
        try recording.dispatch(transform, buffers: [buffers[.source]!, buffers[.work]!], constants: TransformConstants(
            sourceWidth: Int32(recipe.sourceWidth), sourceHeight: Int32(recipe.sourceHeight), channels: Int32(recipe.channels),
            cropX: Int32(recipe.crop.x), cropY: Int32(recipe.crop.y), cropWidth: Int32(recipe.crop.width),
            cropHeight: Int32(recipe.crop.height), turns: Int32(recipe.quarterTurns), shrinkX: Int32(shrink.x),
            shrinkY: Int32(shrink.y), width: Int32(shrunk.width), height: Int32(shrunk.height),
            premultiply: premultiply ? 1 : 0, frames: Int32(count)), groups: groups(shrunk.width, shrunk.height, count))
        if recipe.resizes {
            let (horizontal, vertical) = Self.tables(recipe)
            for (table, role) in [(horizontal, BufferPool.Role.horizontalWeights), (vertical, .verticalWeights)] {
                table.values.withUnsafeBytes { buffers[role]!.contents!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            }
            try recording.dispatch(lanczos, buffers: [buffers[.work]!, buffers[.horizontal]!, buffers[.horizontalWeights]!],
                                   constants: LanczosConstants(
                sourceWidth: Int32(shrunk.width), sourceHeight: Int32(shrunk.height), width: Int32(recipe.width),
                height: Int32(shrunk.height), vertical: 0, taps: Int32(horizontal.taps), frames: Int32(count)),
                groups: groups(recipe.width, shrunk.height, count))
            try recording.dispatch(lanczos, buffers: [buffers[.horizontal]!, buffers[.work]!, buffers[.verticalWeights]!],
                                   constants: LanczosConstants(
                sourceWidth: Int32(recipe.width), sourceHeight: Int32(shrunk.height), width: Int32(recipe.width),
                height: Int32(recipe.height), vertical: 1, taps: Int32(vertical.taps), frames: Int32(count)),
                groups: groups(recipe.width, recipe.height, count))
        }
        let pixels = count * recipe.width * recipe.height
        try recording.dispatch(finish, buffers: [buffers[.work]!, buffers[.packed]!], constants: FinishConstants(
            count: Int32(pixels), unpremultiply: premultiply ? 1 : 0, adjust: recipe.adjustsColour ? 1 : 0,
            gain: Float(pow(2, recipe.exposure) * recipe.contrast), offset: Float(128 * (1 - recipe.contrast)),
            saturation: Float(recipe.saturation)), groups: (linearGroups(pixels), 1, 1))
        guard let matrix = output.matrix else {
            recording.copy(buffers[.packed]!, to: buffers[.download]!, size: pixels * 4)
            return
        }
        let layout = YUVLayout(width: recipe.width, height: recipe.height)
        let rows = matrix.rows
        let (luma, blue, red) = (SIMD3<Float>(rows.luma), SIMD3<Float>(rows.blue), SIMD3<Float>(rows.red))
        for chroma in [0, 1] {
            let words = (chroma == 0 ? layout.lumaStride : layout.chromaStride) / 4
            let planeRows = chroma == 0 ? layout.height : layout.chromaHeight
            try recording.dispatch(yuv420, buffers: [buffers[.packed]!, buffers[.planes]!], constants: YUVConstants(
                width: Int32(recipe.width), height: Int32(recipe.height), lumaStride: Int32(layout.lumaStride),
                chromaStride: Int32(layout.chromaStride), chroma: Int32(chroma), frames: Int32(count),
                lumaR: luma.x, lumaG: luma.y, lumaB: luma.z, lumaOffset: Float(rows.lumaOffset),
                blueR: blue.x, blueG: blue.y, blueB: blue.z, redR: red.x, redG: red.y, redB: red.z),
                groups: groups(words, planeRows, count))
        }
        recording.copy(buffers[.planes]!, to: buffers[.download]!, size: count * layout.pictureBytes)
    }

    /// The weight tables of the horizontal and vertical passes, for the reduction left after the
    /// box shrink.
    static func tables(_ recipe: RenderRecipe) -> (horizontal: LanczosTable, vertical: LanczosTable) {
        let (horizontal, vertical) = scales(recipe)
        return (LanczosTable(count: recipe.width, scale: horizontal), LanczosTable(count: recipe.height, scale: vertical))
    }

    /// The reductions left to the Lanczos passes after the box shrink.
    static func scales(_ recipe: RenderRecipe) -> (horizontal: Double, vertical: Double) {
        let shrink = recipe.shrink
        return (Double(recipe.turnedWidth) / Double(shrink.x * recipe.width),
                Double(recipe.turnedHeight) / Double(shrink.y * recipe.height))
    }

    /// Workgroups of 16 × 16 over `width × height` pictures. The shaders loop over the pictures
    /// and over whatever their grid does not cover, so software devices, which pay for every
    /// workgroup, get few; GPUs get one invocation per pixel of a picture.
    private func groups(_ width: Int, _ height: Int, _ count: Int) -> (x: Int, y: Int, z: Int) {
        let cap = device.type.isHardware ? 65_535 : 4
        return (max(1, min(cap, (width + 15) / 16)), max(1, min(cap, (height + 15) / 16)), 1)
    }

    /// Workgroups of 256 for `elements` items in a row (the `finish` shader's grid-stride loop).
    private func linearGroups(_ elements: Int) -> Int {
        max(1, min(device.type.isHardware ? 65_535 : 16, (elements + 255) / 256))
    }

    /// The bytes each buffer needs for `count` pictures.
    static func sizes(_ recipe: RenderRecipe, output: RenderOutput, count: Int) -> [BufferPool.Role: Int] {
        let source = (count * recipe.sourceWidth * recipe.sourceHeight * recipe.channels + 3) & ~3
        let shrunk = count * recipe.shrunkWidth * recipe.shrunkHeight * 16
        let packed = count * recipe.width * recipe.height * 4
        var sizes: [BufferPool.Role: Int] = [.upload: source, .source: source, .work: max(shrunk, count * recipe.width * recipe.height * 16),
                                              .packed: packed]
        if recipe.resizes {
            sizes[.horizontal] = count * recipe.width * recipe.shrunkHeight * 16
            let (horizontal, vertical) = scales(recipe)
            sizes[.horizontalWeights] = LanczosTable.byteCount(count: recipe.width, scale: horizontal)
            sizes[.verticalWeights] = LanczosTable.byteCount(count: recipe.height, scale: vertical)
        }
        if output.matrix != nil {
            let planes = count * YUVLayout(width: recipe.width, height: recipe.height).pictureBytes
            sizes[.planes] = planes
            sizes[.download] = planes
        } else {
            sizes[.download] = packed
        }
        return sizes
    }
}
