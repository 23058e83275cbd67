import Glibc
import Vulkan

/// A small known-answer check of every shader, run before a device is trusted with real work.
enum SelfTest {
    /// Renders four tiny pictures whose right answers are known and compares.
    /// - Throws: ``VulkanError/Kind/selfTestFailed`` naming what came back wrong.
    static func run(_ renderer: GPURenderer) throws {
        try checkCropTurnColour(renderer)
        try checkResize(renderer)
        try checkYUV(renderer)
        try checkPlanesWithColour(renderer)
    }

    /// Crop, a quarter turn and colour on a 6×4 gradient, against the definition worked out here.
    private static func checkCropTurnColour(_ renderer: GPURenderer) throws {
        var source: [UInt8] = []
        for pixel in 0..<24 { source += [UInt8(pixel * 10), UInt8(255 - pixel * 10), UInt8(pixel * 5 + 20)] }
        let recipe = RenderRecipe(sourceWidth: 6, sourceHeight: 4, channels: 3, crop: .init(x: 1, y: 0, width: 5, height: 4),
                                  quarterTurns: 1, exposure: 0.5, contrast: 1.25, saturation: 0.5)
        let result = try render(recipe, source, renderer)
        for y in 0..<5 {
            for x in 0..<4 {
                // One turn clockwise: output (x, y) is the crop's (y, 3 - x).
                let pixel = (3 - x) * 6 + 1 + y
                let gain = pow(2, 0.5) * 1.25, offset = 128 * (1 - 1.25)
                let rgb: [Double] = (0..<3).map { Double(source[pixel * 3 + $0]) * gain + offset }
                let luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
                for channel in 0..<3 {
                    let saturated: Double = luma + (rgb[channel] - luma) * 0.5
                    let expected = min(255, max(0, saturated.rounded(.toNearestOrEven)))
                    try expect(abs(Double(result[(y * 4 + x) * 4 + channel]) - expected) <= 1, "crop, turn and colour")
                }
            }
        }
    }

    /// A flat colour stays that colour through box shrink and Lanczos3 (normalised weights).
    private static func checkResize(_ renderer: GPURenderer) throws {
        let flat: [UInt8] = [200, 100, 50, 255]
        let source = [[UInt8]](repeating: flat, count: 40 * 30).flatMap { $0 }
        let recipe = RenderRecipe(sourceWidth: 40, sourceHeight: 30, channels: 4, width: 7, height: 5)
        let result = try render(recipe, source, renderer)
        try expect(result.count == 7 * 5 * 4, "resize size")
        for pixel in 0..<35 {
            try expect(Array(result[pixel * 4..<pixel * 4 + 4]) == [200, 100, 50, 255], "resize of a flat colour")
        }
    }

    /// White and pure green to BT.709 limited-range YUV: white is (235, 128, 128); green is
    /// Y = 16 + 219·0.7152 ≈ 173, Cb = 128 − 112·0.7152/0.9278 ≈ 42, Cr = 128 − 112·0.7152/0.7874 ≈ 26.
    private static func checkYUV(_ renderer: GPURenderer) throws {
        let row = [[UInt8]](repeating: [255, 255, 255], count: 4).flatMap { $0 } + [[UInt8]](repeating: [0, 255, 0], count: 4).flatMap { $0 }
        let source = row + row
        let recipe = RenderRecipe(sourceWidth: 8, sourceHeight: 2, channels: 3)
        let layout = YUVLayout(width: 8, height: 2)
        var planes: [UInt8] = []
        try renderer.render(recipe, count: 1, output: .yuv420(.bt709), fill: { _, pointer in
            source.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }, read: { _, pointer in
            planes = Array(UnsafeRawBufferPointer(start: pointer, count: layout.pictureBytes))
        })
        try expect(planes[layout.lumaOffset] == 235 && planes[layout.lumaOffset + 7] == 173, "luma of white and green")
        try expect(planes[layout.blueOffset] == 128 && planes[layout.redOffset] == 128, "chroma of white")
        try expect(planes[layout.blueOffset + 3] == 42 && planes[layout.redOffset + 3] == 26, "chroma of green")
    }

    /// Flat BT.709 green planes (Y 173, Cb 42, Cr 26), halved and desaturated: the planes resize to
    /// the same values, which are RGB (0, 255, 1); without saturation that is grey 150
    /// (0.587·255 + 0.114·1 ≈ 149.8), which is Y = 16 + 150·219/255 ≈ 145, Cb = Cr = 128.
    private static func checkPlanesWithColour(_ renderer: GPURenderer) throws {
        var source = [UInt8](repeating: 173, count: 16 * 8)
        source += [UInt8](repeating: 42, count: 8 * 4)
        source += [UInt8](repeating: 26, count: 8 * 4)
        let recipe = RenderRecipe(sourceWidth: 16, sourceHeight: 8, channels: 1, width: 8, height: 4, saturation: 0)
        let layout = YUVLayout(width: 8, height: 4)
        var planes: [UInt8] = []
        try renderer.render(recipe, count: 1, input: .yuv420, output: .yuv420(.bt709), fill: { _, pointer in
            source.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }, read: { _, pointer in
            planes = Array(UnsafeRawBufferPointer(start: pointer, count: layout.pictureBytes))
        })
        var luma: [UInt8] = [], chroma: [UInt8] = []
        for row in 0..<4 { luma += planes[row * layout.lumaStride..<row * layout.lumaStride + 8] }
        for row in 0..<2 {
            for plane in [layout.blueOffset, layout.redOffset] {
                let start = plane + row * layout.chromaStride
                chroma += planes[start..<start + 4]
            }
        }
        try expect(luma.allSatisfy { abs(Int($0) - 145) <= 1 }, "luma of resized, desaturated planes")
        try expect(chroma.allSatisfy { abs(Int($0) - 128) <= 1 }, "chroma of resized, desaturated planes")
    }

    private static func render(_ recipe: RenderRecipe, _ source: [UInt8], _ renderer: GPURenderer) throws -> [UInt8] {
        var result: [UInt8] = []
        try renderer.render(recipe, count: 1, output: .rgba, fill: { _, pointer in
            source.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }, read: { _, pointer in
            result = Array(UnsafeRawBufferPointer(start: pointer, count: recipe.width * recipe.height * 4))
        })
        return result
    }

    private static func expect(_ condition: Bool, _ what: String) throws {
        guard condition else {
            throw VulkanError(.selfTestFailed, operation: "self-test", reason: "the device computed the \(what) check wrongly")
        }
    }
}
