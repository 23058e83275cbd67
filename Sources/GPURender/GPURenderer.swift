import CShaders
import Glibc
import Synchronization
import Vulkan

/// Renders batches of pictures on one Vulkan device by a ``RenderRecipe``: uploads them through
/// a staging buffer, runs the compute shaders (crop, turn and box shrink; horizontal Lanczos3;
/// vertical Lanczos3 with the colour steps, writing 8-bit results), and downloads the results
/// through another.
///
/// Pictures come packed (grey, RGB or RGBA) or as YUV 4:2:0 planes, which are cropped, turned
/// and resized plane by plane as the CPU path's swscale does, then, for a colour change, taken
/// to RGB and back by the video's matrix on the device, in the vertical pass. A picture whose buffers would
/// exceed the device's largest storage buffer or the memory budget renders in strips of rows
/// (``render(_:pixels:into:)``), each reading the rows its filters overlap.
///
/// Pipelines are built once; buffers are kept and reused from batch to batch, within
/// ``memoryBudget``. Safe to share: renders from several threads take turns.
public final class GPURenderer: @unchecked Sendable {
    /// How the pictures a render takes are laid out.
    public enum Input: Sendable, Equatable {
        /// `sourceWidth × channels` bytes a row, rows back to back.
        case packed
        /// YUV 4:2:0 planes back to back, each tightly packed: luma (`sourceWidth × sourceHeight`),
        /// then blue- and red-difference chroma (half of each, rounded up). The recipe has one
        /// channel; the output is ``RenderOutput/yuv420(_:)``, whose matrix and range the
        /// pictures use too (the colour steps go through RGB by it).
        case yuv420
    }

    /// The device rendering.
    public let device: DeviceInfo
    /// The most device memory the renderer's buffers may hold, in bytes.
    public let memoryBudget: Int
    private let vulkan: Device
    private let recorder: CommandRecorder
    private let transform: ComputePipeline
    private let lanczos: ComputePipeline
    private let transformPlane: ComputePipeline
    private let lanczosPlane: ComputePipeline
    private let lanczosSource: ComputePipeline
    private let lanczosSourcePlane: ComputePipeline
    private let lanczosRGBA8: ComputePipeline
    private let lanczosPlane8: ComputePipeline
    private let lanczosYUV420: ComputePipeline
    private let yuv420: ComputePipeline
    private let pool: BufferPool
    private let lock = Mutex(())

    /// Opens `physical`, builds the pipelines and checks them with ``SelfTest``.
    /// - Parameter memoryBudget: bytes; default a quarter of the device-local memory, at most 2 GiB.
    public init(_ physical: PhysicalDevice, memoryBudget: Int? = nil) throws {
        device = physical.info
        self.memoryBudget = memoryBudget ?? Int(min(physical.info.deviceLocalMemoryBytes / 4, 2 << 30))
        vulkan = try Device(physical)
        recorder = try CommandRecorder(device: vulkan)
        // Each shader reads its input as texels and writes a storage buffer. Working pictures are
        // RGBA in 16-bit floats, or one channel in 32-bit floats for the planes of YUV pictures,
        // whose vertical pass reads four samples of a row a texel.
        transform = try Self.pipeline(vulkan, mj_shader_transform, TransformConstants.self, bindings: [.uint32, nil])
        lanczos = try Self.pipeline(vulkan, mj_shader_lanczos, LanczosConstants.self, bindings: [.rgba16Float, nil, .rgba32Float])
        transformPlane = try Self.pipeline(vulkan, mj_shader_transform_plane, TransformConstants.self, bindings: [.uint32, nil])
        lanczosPlane = try Self.pipeline(vulkan, mj_shader_lanczos_plane, LanczosConstants.self,
                                         bindings: [.float32, nil, .rgba32Float])
        // Without a box shrink the horizontal pass reads the uploaded bytes itself, a byte a texel.
        lanczosSource = try Self.pipeline(vulkan, mj_shader_lanczos_source, SourceLanczosConstants.self,
                                          bindings: [.unorm8, nil, .rgba32Float])
        lanczosSourcePlane = try Self.pipeline(vulkan, mj_shader_lanczos_source_plane, SourceLanczosConstants.self,
                                               bindings: [.unorm8, nil, .rgba32Float])
        lanczosRGBA8 = try Self.pipeline(vulkan, mj_shader_lanczos_rgba8, LanczosConstants.self,
                                         bindings: [.rgba16Float, nil, .rgba32Float])
        lanczosPlane8 = try Self.pipeline(vulkan, mj_shader_lanczos_plane8, PlaneConstants.self,
                                          bindings: [.rgba32Float, nil, .rgba32Float])
        lanczosYUV420 = try Self.pipeline(vulkan, mj_shader_lanczos_yuv420, ColourPlanesConstants.self,
                                          bindings: [.rgba32Float, nil, .rgba32Float, .rgba32Float])
        yuv420 = try Self.pipeline(vulkan, mj_shader_yuv420, YUVConstants.self, bindings: [.uint32, nil])
        pool = BufferPool(device: vulkan, budget: self.memoryBudget)
    }

    private static func pipeline<Constants>(_ device: Device, _ shader: MJShader, _ constants: Constants.Type,
                                            bindings: [TexelFormat?]) throws -> ComputePipeline {
        try ComputePipeline(device: device, spirv: UnsafeBufferPointer(start: shader.words, count: shader.count), bindings: bindings,
                            pushConstantSize: MemoryLayout<Constants>.size)
    }

    /// The largest buffer of `role` a render may use, in bytes: the device's largest storage
    /// buffer, and no more texels than a texel buffer holds (the shaders read their inputs as
    /// texels: the uploaded pictures one byte a texel, the others four bytes or more).
    private func maxBytes(_ role: BufferPool.Role) -> Int {
        min(Int(device.maxStorageBufferRange), (role == .source ? 1 : 4) * Int(device.maxTexelBufferElements))
    }

    /// A buffer in `sizes` over its limit (``maxBytes(_:)``), if any.
    private func oversized(_ sizes: [BufferPool.Role: Int]) -> (role: BufferPool.Role, bytes: Int)? {
        sizes.first { $0.value > maxBytes($0.key) }.map { ($0.key, $0.value) }
    }

    /// Device memory the renderer's buffers hold now, in bytes.
    public var allocatedBytes: Int { lock.withLock { _ in pool.allocatedBytes } }

    /// How many pictures of `recipe` fit in one batch within the memory budget and the device's
    /// largest storage buffer, at most `limit`.
    public func batchCapacity(for recipe: RenderRecipe, input: Input = .packed, output: RenderOutput, limit: Int) -> Int {
        let perPicture = Self.sizes(Self.passes(recipe, input: input), input: input, output: output, count: 1)
        let byBudget = memoryBudget / max(1, perPicture.values.reduce(0, +))
        let byBuffer = perPicture.map { maxBytes($0.key) / max(1, $0.value) }.min() ?? 0
        return max(0, min(limit, byBudget, byBuffer))
    }

    /// Renders `count` pictures by `recipe`.
    /// - Parameters:
    ///   - input: how `fill` lays the pictures out.
    ///   - fill: writes picture `i`'s pixels, laid out as `input` says, at the pointer given.
    ///   - read: receives picture `i`'s result: RGBA rows, or planes as ``YUVLayout`` says.
    ///     Valid only during the call.
    /// - Throws: ``VulkanError`` (`outOfMemory` when the batch exceeds the budget or a buffer
    ///   the device's largest storage buffer), or what `fill` and `read` throw.
    public func render(_ recipe: RenderRecipe, count: Int, input: Input = .packed, output: RenderOutput,
                       fill: (Int, UnsafeMutableRawPointer) throws -> Void,
                       read: (Int, UnsafeRawPointer) throws -> Void) throws {
        if let problem = recipe.problem(input: input, output: output) {
            throw VulkanError(.callFailed, operation: "render", reason: problem)
        }
        try render(Self.passes(recipe, input: input), count: count, input: input, output: output, fill: fill, read: read)
    }

    /// Renders one packed picture to RGBA rows (`width × 4` bytes each) at `rgba`; in strips of
    /// rows when it does not fit the device's largest storage buffer or the budget in one go.
    /// - Parameter pixels: the picture, laid out as ``Input/packed`` says.
    /// - Throws: ``VulkanError`` (`outOfMemory` when not even a strip of one row fits).
    public func render(_ recipe: RenderRecipe, pixels: UnsafeRawBufferPointer, into rgba: UnsafeMutableRawBufferPointer) throws {
        if let problem = recipe.problem(input: .packed, output: .rgba) {
            throw VulkanError(.callFailed, operation: "render", reason: problem)
        }
        precondition(pixels.count >= recipe.sourceWidth * recipe.sourceHeight * recipe.channels
            && rgba.count >= recipe.width * recipe.height * 4)
        let whole = RenderPass(recipe)
        let rowBytes = recipe.width * 4
        for rows in try strips(of: whole) {
            let (pass, part) = rows.count == recipe.height ? (whole, RenderRecipe.Rect(x: 0, y: 0, width: recipe.sourceWidth, height: recipe.sourceHeight)) : whole.strip(rows)
            let partRowBytes = part.width * recipe.channels
            try render([pass], count: 1, input: .packed, output: .rgba, fill: { _, upload in
                for row in 0..<part.height {
                    let offset = ((part.y + row) * recipe.sourceWidth + part.x) * recipe.channels
                    (upload + row * partRowBytes).copyMemory(from: pixels.baseAddress! + offset, byteCount: partRowBytes)
                }
            }, read: { _, result in
                (rgba.baseAddress! + rows.lowerBound * rowBytes).copyMemory(from: result, byteCount: rows.count * rowBytes)
            })
        }
    }

    /// The strips of output rows `pass` renders in: all rows at once when they fit, else the
    /// fewest equal strips (halving) that each fit.
    private func strips(of pass: RenderPass) throws -> [Range<Int>] {
        let height = pass.height
        var strips = 1
        while true {
            let rows = (height + strips - 1) / strips
            let ranges = stride(from: 0, to: height, by: rows).map { $0..<min(height, $0 + rows) }
            let fit = ranges.allSatisfy { range in
                let sizes = Self.sizes([range.count == height ? pass : pass.strip(range).pass], input: .packed, output: .rgba, count: 1)
                return sizes.values.reduce(0, +) <= memoryBudget && oversized(sizes) == nil
            }
            if fit { return ranges }
            guard rows > 1 else {
                throw VulkanError(.outOfMemory, operation: "render",
                                  reason: "not even one row of the \(pass.recipe.sourceWidth)×\(pass.recipe.sourceHeight) picture fits "
                                      + "the device's largest buffers (\(maxBytes(.source) >> 20) MiB for the picture) "
                                      + "and the budget of \(memoryBudget >> 20) MiB")
            }
            strips = min(height, strips * 2)
        }
    }

    /// The passes a render of `recipe` runs: the whole picture, or luma then chroma (resized to
    /// the full size for a colour change, which goes through RGB).
    static func passes(_ recipe: RenderRecipe, input: Input) -> [RenderPass] {
        switch input {
        case .packed: [RenderPass(recipe)]
        case .yuv420: [RenderPass(recipe), RenderPass(recipe.chroma(fullSize: recipe.adjustsColour))]
        }
    }

    private func render(_ passes: [RenderPass], count: Int, input: Input, output: RenderOutput,
                        fill: (Int, UnsafeMutableRawPointer) throws -> Void,
                        read: (Int, UnsafeRawPointer) throws -> Void) throws {
        guard count > 0 else { return }
        let sizes = Self.sizes(passes, input: input, output: output, count: count)
        if let (role, bytes) = oversized(sizes) {
            throw VulkanError(.outOfMemory, operation: "render",
                              reason: "the pictures need a \(bytes >> 20) MiB buffer, over the device's limit of "
                                  + "\(maxBytes(role) >> 20) MiB")
        }
        try lock.withLock { _ in
            let buffers = try pool.buffers(sizes)
            let pictureBytes = Self.uploadBytes(passes, input: input)
            let upload = buffers[.upload]!.contents!
            for index in 0..<count { try fill(index, upload + index * pictureBytes) }
            let resultBytes = output.matrix == nil ? passes[0].width * passes[0].height * 4
                : YUVLayout(width: passes[0].width, height: passes[0].height).pictureBytes
            try recorder.submit { recording in
                switch input {
                case .packed: try record(passes[0], count: count, output: output, buffers: buffers, into: &recording)
                case .yuv420: try recordPlanes(luma: passes[0], chroma: passes[1], count: count, matrix: output.matrix!,
                                               buffers: buffers, into: &recording)
                }
            }
            let download = UnsafeRawPointer(buffers[.download]!.contents!)
            for index in 0..<count { try read(index, download + index * resultBytes) }
        }
    }

    /// Packed pictures: upload, transform, the horizontal pass, the vertical pass finishing
    /// them to RGBA8 (colour steps included), then RGBA or YUV out.
    private func record(_ pass: RenderPass, count: Int, output: RenderOutput, buffers: [BufferPool.Role: Buffer],
                        into recording: inout Recording) throws {
        recording.copy(buffers[.upload]!, to: buffers[.source]!, size: (count * pass.sourceBytes + 3) & ~3)
        let recipe = pass.recipe
        try recordTransformAndHorizontal(pass, frames: count, sourceOffset: 0, tableOffset: 0, oneChannel: false,
                                         into: buffers[.horizontal]!, stride: pass.width, buffers: buffers, recording: &recording)
        let vertical = pass.tables.vertical
        write(vertical, to: buffers[.verticalWeights]!, at: 0)
        try recording.dispatch(lanczosRGBA8, buffers: [buffers[.horizontal]!, buffers[.packed]!, buffers[.verticalWeights]!],
                               constants: LanczosConstants(
            sourceWidth: Int32(pass.width), sourceHeight: Int32(pass.shrunkHeight), width: Int32(pass.width),
            height: Int32(pass.height), stride: Int32(pass.width), vertical: 1, taps: Int32(vertical.taps), frames: Int32(count),
            tableOffset: 0, unpremultiply: pass.premultiplies ? 1 : 0, adjust: recipe.adjustsColour ? 1 : 0,
            gain: Float(recipe.gain), offset: Float(recipe.offset), saturation: Float(recipe.saturation)),
            groups: groups(pass.width, pass.height, count))
        guard let matrix = output.matrix else {
            recording.copy(buffers[.packed]!, to: buffers[.download]!, size: count * pass.width * pass.height * 4)
            return
        }
        let layout = YUVLayout(width: pass.width, height: pass.height)
        let rows = matrix.rows
        let (luma, blue, red) = (SIMD3<Float>(rows.luma), SIMD3<Float>(rows.blue), SIMD3<Float>(rows.red))
        for chroma in [0, 1] {
            let words = (chroma == 0 ? layout.lumaStride : layout.chromaStride) / 4
            let planeRows = chroma == 0 ? layout.height : layout.chromaHeight
            try recording.dispatch(yuv420, buffers: [buffers[.packed]!, buffers[.planes]!], constants: YUVConstants(
                width: Int32(layout.width), height: Int32(layout.height), lumaStride: Int32(layout.lumaStride),
                chromaStride: Int32(layout.chromaStride), chroma: Int32(chroma), frames: Int32(count),
                lumaR: luma.x, lumaG: luma.y, lumaB: luma.z, lumaOffset: Float(rows.lumaOffset),
                blueR: blue.x, blueG: blue.y, blueB: blue.z, redR: red.x, redG: red.y, redB: red.z),
                groups: groups(words, planeRows, count))
        }
        recording.copy(buffers[.planes]!, to: buffers[.download]!, size: count * layout.pictureBytes)
    }

    /// YUV 4:2:0 pictures: the planes gathered from the uploaded pictures (every picture's luma,
    /// then every picture's blue-difference chroma, then every red-difference one), transformed
    /// and resized horizontally, luma on its own and chroma as one batch of twice the pictures;
    /// then the vertical pass writes the 8-bit planes into place. With a colour change chroma is
    /// resized to the full size (4:4:4), and one vertical pass filters all three planes, goes to
    /// RGB, through the colour steps and back by `matrix`.
    private func recordPlanes(luma: RenderPass, chroma: RenderPass, count: Int, matrix: YUVMatrix,
                              buffers: [BufferPool.Role: Buffer], into recording: inout Recording) throws {
        let layout = YUVLayout(width: luma.width, height: luma.height)
        let pictureBytes = Self.uploadBytes([luma, chroma], input: .yuv420)
        let (lumaBytes, chromaBytes) = (luma.sourceBytes, chroma.sourceBytes)
        let chromaStart = Self.chromaStart(luma, count: count)
        for index in 0..<count {
            let picture = index * pictureBytes
            recording.copy(buffers[.upload]!, to: buffers[.source]!, size: lumaBytes, sourceOffset: picture,
                           destinationOffset: index * lumaBytes)
            for plane in 0..<2 {
                recording.copy(buffers[.upload]!, to: buffers[.source]!, size: chromaBytes,
                               sourceOffset: picture + lumaBytes + plane * chromaBytes,
                               destinationOffset: chromaStart + (plane * count + index) * chromaBytes)
            }
        }
        let lumaTables = (luma.tables.horizontal.values.count, luma.tables.vertical.values.count)
        try recordTransformAndHorizontal(luma, frames: count, sourceOffset: 0, tableOffset: 0, oneChannel: true,
                                         into: buffers[.horizontal]!, stride: Self.rowTexels(luma.width) * 4, buffers: buffers,
                                         recording: &recording)
        try recordTransformAndHorizontal(chroma, frames: 2 * count, sourceOffset: chromaStart, tableOffset: lumaTables.0,
                                         oneChannel: true, into: buffers[.chromaHorizontal]!,
                                         stride: Self.rowTexels(chroma.width) * 4, buffers: buffers, recording: &recording)
        let weights = buffers[.verticalWeights]!
        write(luma.tables.vertical, to: weights, at: 0)
        write(chroma.tables.vertical, to: weights, at: lumaTables.1)
        if luma.recipe.adjustsColour {
            let recipe = luma.recipe, rows = matrix.rows, inverse = matrix.inverse
            let (lumaRow, blue, red) = (SIMD3<Float>(rows.luma), SIMD3<Float>(rows.blue), SIMD3<Float>(rows.red))
            try recording.dispatch(lanczosYUV420, buffers: [buffers[.horizontal]!, buffers[.planes]!, weights,
                                                            buffers[.chromaHorizontal]!], constants: ColourPlanesConstants(
                width: Int32(layout.width), height: Int32(layout.height), lumaRows: Int32(luma.shrunkHeight),
                chromaRows: Int32(chroma.shrunkHeight), lumaTaps: Int32(luma.tables.vertical.taps),
                chromaTaps: Int32(chroma.tables.vertical.taps), lumaTable: 0, chromaTable: Int32(lumaTables.1 / 4),
                frames: Int32(count), lumaStride: Int32(layout.lumaStride), chromaStride: Int32(layout.chromaStride),
                lumaR: lumaRow.x, lumaG: lumaRow.y, lumaB: lumaRow.z, lumaOffset: Float(rows.lumaOffset),
                blueR: blue.x, blueG: blue.y, blueB: blue.z, redR: red.x, redG: red.y, redB: red.z,
                lumaGain: Float(inverse.lumaGain), redCr: Float(inverse.redCr), greenCb: Float(inverse.greenCb),
                greenCr: Float(inverse.greenCr), blueCb: Float(inverse.blueCb),
                gain: Float(recipe.gain), offset: Float(recipe.offset), saturation: Float(recipe.saturation)),
                groups: groups(layout.chromaStride / 4, layout.chromaHeight, count))
        } else {
            let planes: [(pass: RenderPass, source: Buffer, frames: Int, word: Int, table: Int)] = [
                (luma, buffers[.horizontal]!, count, layout.lumaOffset / 4, 0),
                (chroma, buffers[.chromaHorizontal]!, 2 * count, layout.blueOffset / 4, lumaTables.1 / 4),
            ]
            for plane in planes {
                try recording.dispatch(lanczosPlane8, buffers: [plane.source, buffers[.planes]!, weights], constants: PlaneConstants(
                    sourceHeight: Int32(plane.pass.shrunkHeight), width: Int32(plane.pass.width), height: Int32(plane.pass.height),
                    taps: Int32(plane.pass.tables.vertical.taps), tableOffset: Int32(plane.table), frames: Int32(plane.frames),
                    pictures: Int32(count), frameWords: Int32(layout.pictureBytes / 4), planeWord: Int32(plane.word),
                    planeGapWords: Int32((layout.redOffset - layout.blueOffset) / 4)),
                    groups: groups(Self.rowTexels(plane.pass.width), plane.pass.height, plane.frames))
            }
        }
        recording.copy(buffers[.planes]!, to: buffers[.download]!, size: count * layout.pictureBytes)
    }

    /// The horizontal Lanczos pass of `frames` pictures from the source buffer at byte
    /// `sourceOffset` into `target`, rows `stride` samples apart, with its table written
    /// `tableOffset` floats into the horizontal weights: straight from the source through the crop
    /// and turns, or with a box shrink after a transform (crop, turn, box shrink) into `work`.
    /// Working pictures are RGBA, or `oneChannel` (planes of YUV pictures) the first channel alone.
    private func recordTransformAndHorizontal(_ pass: RenderPass, frames: Int, sourceOffset: Int, tableOffset: Int,
                                              oneChannel: Bool, into target: Buffer, stride: Int,
                                              buffers: [BufferPool.Role: Buffer], recording: inout Recording) throws {
        let recipe = pass.recipe
        let horizontal = pass.tables.horizontal
        write(horizontal, to: buffers[.horizontalWeights]!, at: tableOffset)
        if !pass.boxShrinks {
            let map = recipe.sourceMap
            try recording.dispatch(oneChannel ? lanczosSourcePlane : lanczosSource,
                                   buffers: [buffers[.source]!, target, buffers[.horizontalWeights]!], constants: SourceLanczosConstants(
                width: Int32(pass.width), height: Int32(pass.shrunkHeight), stride: Int32(stride), frames: Int32(frames),
                taps: Int32(horizontal.taps), tableOffset: Int32(tableOffset / 4), sourceOffset: UInt32(sourceOffset),
                frameBytes: Int32(pass.sourceBytes), channels: Int32(recipe.channels), origin: Int32(map.origin),
                stepX: Int32(map.stepX), stepY: Int32(map.stepY), turnedWidth: Int32(recipe.turnedWidth),
                premultiply: pass.premultiplies ? 1 : 0, lastByte: Int32(sourceOffset + frames * pass.sourceBytes - 1)),
                groups: groups(pass.width, pass.shrunkHeight, frames))
            return
        }
        let (transform, lanczos) = oneChannel ? (transformPlane, lanczosPlane) : (self.transform, self.lanczos)
        try recording.dispatch(transform, buffers: [buffers[.source]!, buffers[.work]!], constants: TransformConstants(
            sourceWidth: Int32(recipe.sourceWidth), sourceHeight: Int32(recipe.sourceHeight), channels: Int32(recipe.channels),
            cropX: Int32(recipe.crop.x), cropY: Int32(recipe.crop.y), cropWidth: Int32(recipe.crop.width),
            cropHeight: Int32(recipe.crop.height), turns: Int32(recipe.quarterTurns), shrinkX: Int32(pass.shrink.x),
            shrinkY: Int32(pass.shrink.y), width: Int32(pass.shrunkWidth), height: Int32(pass.shrunkHeight),
            premultiply: pass.premultiplies ? 1 : 0, frames: Int32(frames), sourceOffset: UInt32(sourceOffset)),
            groups: groups(pass.shrunkWidth, pass.shrunkHeight, frames))
        try recording.dispatch(lanczos, buffers: [buffers[.work]!, target, buffers[.horizontalWeights]!], constants: LanczosConstants(
            sourceWidth: Int32(pass.shrunkWidth), sourceHeight: Int32(pass.shrunkHeight), width: Int32(pass.width),
            height: Int32(pass.shrunkHeight), stride: Int32(stride), vertical: 0, taps: Int32(horizontal.taps),
            frames: Int32(frames), tableOffset: Int32(tableOffset / 4)),
            groups: groups(pass.width, pass.shrunkHeight, frames))
    }

    /// Copies a weight table into a staging buffer, `offset` floats in.
    private func write(_ table: LanczosTable, to buffer: Buffer, at offset: Int) {
        table.values.withUnsafeBytes { buffer.contents!.advanced(by: offset * 4).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    /// Workgroups of 16 × 16 over `width × height` pictures. The shaders loop over the pictures
    /// and over whatever their grid does not cover, so software devices, which pay for every
    /// workgroup, get few; GPUs get one invocation per pixel of a picture.
    private func groups(_ width: Int, _ height: Int, _ count: Int) -> (x: Int, y: Int, z: Int) {
        let cap = device.type.isHardware ? 65_535 : 4
        return (max(1, min(cap, (width + 15) / 16)), max(1, min(cap, (height + 15) / 16)), 1)
    }

    /// The bytes one uploaded picture takes.
    private static func uploadBytes(_ passes: [RenderPass], input: Input) -> Int {
        switch input {
        case .packed: passes[0].sourceBytes
        case .yuv420: passes[0].sourceBytes + 2 * passes[1].sourceBytes
        }
    }

    /// Where the chroma planes of `count` YUV pictures start in the source buffer, after their luma.
    private static func chromaStart(_ luma: RenderPass, count: Int) -> Int { (count * luma.sourceBytes + 3) & ~3 }

    /// Texels of four samples a row of a plane `width` samples wide, as the vertical pass of
    /// planes reads them (rows padded to a multiple of four samples).
    private static func rowTexels(_ width: Int) -> Int { (width + 3) / 4 }

    /// The bytes each buffer needs for `count` pictures rendered by `passes`.
    static func sizes(_ passes: [RenderPass], input: Input, output: RenderOutput, count: Int) -> [BufferPool.Role: Int] {
        let main = passes[0]
        var sizes: [BufferPool.Role: Int] = [:]
        switch input {
        case .packed:
            // Working pictures: RGBA in 16-bit floats.
            sizes[.source] = (count * main.sourceBytes + 3) & ~3
            if main.boxShrinks { sizes[.work] = count * main.shrunkWidth * main.shrunkHeight * 8 }
            sizes[.horizontal] = count * main.width * main.shrunkHeight * 8
            sizes[.packed] = count * main.width * main.height * 4
            sizes[.horizontalWeights] = main.tables.horizontal.byteCount
            sizes[.verticalWeights] = main.tables.vertical.byteCount
        case .yuv420:
            // Planes: one 32-bit float a sample; chroma as twice the pictures.
            let chroma = passes[1]
            sizes[.source] = chromaStart(main, count: count) + 2 * count * chroma.sourceBytes
            let shrunk = [(main, count), (chroma, 2 * count)].filter { $0.0.boxShrinks }
            if !shrunk.isEmpty { sizes[.work] = shrunk.map { $0.1 * $0.0.shrunkWidth * $0.0.shrunkHeight * 4 }.max()! }
            sizes[.horizontal] = count * rowTexels(main.width) * main.shrunkHeight * 16
            sizes[.chromaHorizontal] = 2 * count * rowTexels(chroma.width) * chroma.shrunkHeight * 16
            sizes[.horizontalWeights] = main.tables.horizontal.byteCount + chroma.tables.horizontal.byteCount
            sizes[.verticalWeights] = main.tables.vertical.byteCount + chroma.tables.vertical.byteCount
        }
        sizes[.upload] = sizes[.source]
        if output.matrix != nil {
            let planes = count * YUVLayout(width: main.width, height: main.height).pictureBytes
            sizes[.planes] = planes
            sizes[.download] = planes
        } else {
            sizes[.download] = count * main.width * main.height * 4
        }
        return sizes
    }
}
