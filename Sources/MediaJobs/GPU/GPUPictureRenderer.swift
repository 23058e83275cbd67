import FFmpeg
import GPURender

/// Renders a video segment's pictures on the GPU for ``SegmentEncoder``: the segment's plan as
/// a ``RenderRecipe``, in batches of up to eight pictures that fit the renderer's memory budget.
/// The renderer takes the decoded YUV planes and resizes them plane by plane, as the CPU path
/// does; colour steps go through RGB on the device.
final class GPUPictureRenderer: PictureRenderer {
    /// The most pictures a batch holds: enough to amortise a submission, few enough that a stop
    /// lands quickly.
    static let maxBatch = 8

    private let renderer: GPURenderer
    private let recipe: RenderRecipe
    private let output: RenderOutput
    let batchSize: Int

    /// A renderer for `plan`, or `nil` when not even one picture fits the memory budget.
    init?(_ plan: PictureRenderPlan, on renderer: GPURenderer) {
        (recipe, output) = Self.render(plan)
        batchSize = renderer.batchCapacity(for: recipe, input: .yuv420, output: output, limit: Self.maxBatch)
        guard batchSize > 0 else { return nil }
        self.renderer = renderer
    }

    /// How `plan` renders on the GPU from YUV 4:2:0 planes: the recipe and what comes back.
    package static func render(_ plan: PictureRenderPlan) -> (recipe: RenderRecipe, output: RenderOutput) {
        let recipe = RenderRecipe(sourceWidth: plan.sourceWidth, sourceHeight: plan.sourceHeight, channels: 1,
                                  crop: .init(x: plan.cropX, y: plan.cropY, width: plan.cropWidth, height: plan.cropHeight),
                                  quarterTurns: plan.quarterTurns, width: plan.width, height: plan.height,
                                  exposure: plan.exposure, contrast: plan.contrast, saturation: plan.saturation)
        return (recipe, .yuv420(YUVMatrix(lumaRed: plan.lumaRed, lumaBlue: plan.lumaBlue, fullRange: plan.fullRange)))
    }

    func render(count: Int, fill: (Int, UnsafeMutableRawPointer) throws -> Void,
                read: (Int, PicturePlanes) throws -> Void) throws {
        let layout = YUVLayout(width: recipe.width, height: recipe.height)
        try renderer.render(recipe, count: count, input: .yuv420, output: output, fill: fill, read: { index, bytes in
            try read(index, PicturePlanes(luma: bytes + layout.lumaOffset, blue: bytes + layout.blueOffset,
                                          red: bytes + layout.redOffset, lumaStride: layout.lumaStride,
                                          chromaStride: layout.chromaStride))
        })
    }

    /// The factory ``SegmentEncoder`` takes, rendering on the GPU that `renderer` gives, else on
    /// the CPU; `rendered` is set when a segment used it. `renderer` is asked only when a segment's
    /// edit changes its pictures (``SegmentEncoder`` asks the factory then), so that a segment that
    /// passes its pictures through never waits for GPU probing (which may measure the GPU for
    /// `--gpu auto`) nor makes it start.
    static func factory(_ renderer: @escaping () -> GPURenderer?, rendered: RenderedFlag) -> PictureRendererFactory {
        { plan in
            guard let renderer = renderer() else { return nil }
            let made = GPUPictureRenderer(plan, on: renderer)
            if made != nil { rendered.set() }
            return made
        }
    }
}

/// Set when a segment's pictures were rendered on the GPU.
final class RenderedFlag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
