import FoundationEssentials
import Glibc
import GPURender

/// The parity checks: each carried input rendered on the GPU and compared with the CPU path's
/// output carried beside it, by PSNR over 8-bit values (video: the worst picture).
enum ParityCheck {
    /// One check's outcome.
    struct Outcome: Codable {
        var name: String
        var decibels: Double
        var tolerance: Double
        var passed: Bool
    }

    static func run(_ manifest: GPUCheckManifest, in folder: URL, on renderer: GPURenderer) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for photo in manifest.photos {
            let recipe = photo.recipe
            let input = try Data(contentsOf: folder.appendingPathComponent(photo.input))
            let reference = try Data(contentsOf: folder.appendingPathComponent(photo.reference))
            var rgba = Data(count: recipe.width * recipe.height * 4)
            try input.withUnsafeBytes { source in try rgba.withUnsafeMutableBytes { try renderer.render(recipe, pixels: source, into: $0) } }
            // Keep the channels the reference has.
            var rendered = Data(capacity: reference.count)
            for pixel in 0..<recipe.width * recipe.height {
                rendered.append(contentsOf: rgba[pixel * 4..<pixel * 4 + recipe.channels])
            }
            outcomes.append(outcome(photo.name, psnr(rendered, reference), manifest.photoTolerance))
        }
        for video in manifest.videos {
            let recipe = video.recipe
            let input = try Data(contentsOf: folder.appendingPathComponent(video.input))
            let reference = try Data(contentsOf: folder.appendingPathComponent(video.reference))
            let layout = YUVLayout(width: recipe.width, height: recipe.height)
            let pictureBytes = input.count / video.count
            let matrix = YUVMatrix(lumaRed: video.lumaRed, lumaBlue: video.lumaBlue, fullRange: video.fullRange)
            var worst = Double.infinity
            let referenceBytes = reference.count / video.count
            try renderer.render(recipe, count: video.count, input: .yuv420, output: .yuv420(matrix),
                                fill: { index, upload in
                input.withUnsafeBytes { upload.copyMemory(from: $0.baseAddress! + index * pictureBytes, byteCount: pictureBytes) }
            }, read: { index, planes in
                let rendered = tightPlanes(planes, layout)
                worst = min(worst, psnr(rendered, reference[index * referenceBytes..<(index + 1) * referenceBytes]))
            })
            outcomes.append(outcome(video.name, worst, video.tolerance))
        }
        return outcomes
    }

    private static func outcome(_ name: String, _ decibels: Double, _ tolerance: Double) -> Outcome {
        Outcome(name: name, decibels: decibels, tolerance: tolerance, passed: decibels >= tolerance)
    }

    /// A rendered picture's planes without their row padding.
    private static func tightPlanes(_ planes: UnsafeRawPointer, _ layout: YUVLayout) -> Data {
        var data = Data()
        let chromaWidth = (layout.width + 1) / 2
        for row in 0..<layout.height { data.append(planes.assumingMemoryBound(to: UInt8.self) + row * layout.lumaStride, count: layout.width) }
        for offset in [layout.blueOffset, layout.redOffset] {
            for row in 0..<layout.chromaHeight {
                data.append(planes.assumingMemoryBound(to: UInt8.self) + offset + row * layout.chromaStride, count: chromaWidth)
            }
        }
        return data
    }

    /// PSNR of two pictures of 8-bit values; infinite when they are equal.
    static func psnr<A: DataProtocol, B: DataProtocol>(_ a: A, _ b: B) -> Double where A.Index == Int, B.Index == Int {
        precondition(a.count == b.count, "pictures of \(a.count) and \(b.count) bytes")
        var squares = 0.0
        for (x, y) in zip(a, b) {
            let difference = Double(x) - Double(y)
            squares += difference * difference
        }
        guard squares > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (squares / Double(a.count)))
    }
}
