import GPURender
@testable import MediaJobs
@testable import PhotoJobs
@testable import Vips
import XCTest

/// The GPU path renders photos as the CPU path does, within the stated tolerance: PSNR of at
/// least 45 dB between the two (8-bit pixels, all bands), for each operation alone and combined.
/// Images with alpha are compared as they are seen — colour composited onto black — and by
/// their alpha: where alpha rounds to 0 the colour is invisible and undefined on both paths.
final class PhotoParityTests: XCTestCase {
    static let tolerance = ParityTolerance.photo

    private func assertParity(_ edits: ProjectManifest.Edits, on image: VipsImage, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let cpu = try MediaSettings.apply(edits, to: image)
        let gpu = try GPUPhotoEdits.apply(edits, to: image, on: try GPUSupport.renderer())
        XCTAssertEqual(gpu.width, cpu.width, what, file: file, line: line)
        XCTAssertEqual(gpu.height, cpu.height, what, file: file, line: line)
        XCTAssertEqual(gpu.bands, cpu.bands, what, file: file, line: line)
        var comparisons = [(what, try psnr(gpu.flattened(background: [0]), cpu.flattened(background: [0])))]
        if cpu.hasAlpha {
            comparisons.append(("\(what), alpha", try psnr(gpu.extractBands(first: gpu.bands - 1, count: 1),
                                                         cpu.extractBands(first: cpu.bands - 1, count: 1))))
        }
        for (name, decibels) in comparisons {
            print("parity \(name): \(decibels) dB")
            XCTAssertGreaterThanOrEqual(decibels, Self.tolerance, "\(name): \(decibels) dB", file: file, line: line)
        }
    }

    private func edits(_ change: (inout ProjectManifest.Edits) -> Void) -> ProjectManifest.Edits {
        var edits = ProjectManifest.Edits()
        change(&edits)
        return edits
    }

    func testEachOperationAlone() throws {
        let image = try GPUSupport.pattern(width: 640, height: 480, bands: 3)
        try assertParity(edits { $0.crop = .init(x: 33, y: 17, width: 401, height: 299) }, on: image, "crop")
        for turns in 1...3 {
            try assertParity(edits { $0.rotate = turns * 90 }, on: image, "rotate \(turns * 90)")
        }
        try assertParity(edits { $0.maxWidth = 427 }, on: image, "resize 1.5×")
        try assertParity(edits { $0.maxHeight = 61 }, on: image, "resize 7.9× (box shrink then Lanczos3)")
        try assertParity(edits { $0.exposure = 0.4 }, on: image, "exposure")
        try assertParity(edits { $0.contrast = 1.3 }, on: image, "contrast")
        try assertParity(edits { $0.saturation = 0.4 }, on: image, "saturation")
    }

    func testCombinedOnColourGreyAndAlpha() throws {
        let combined = edits {
            $0.crop = .init(x: 20, y: 10, width: 500, height: 400)
            $0.rotate = 270
            $0.maxWidth = 150
            $0.exposure = -0.3
            $0.contrast = 1.2
            $0.saturation = 1.4
        }
        try assertParity(combined, on: try GPUSupport.pattern(width: 640, height: 480, bands: 3), "combined, colour")
        try assertParity(combined, on: try GPUSupport.pattern(width: 640, height: 480, bands: 4), "combined, alpha")
        try assertParity(combined, on: try GPUSupport.pattern(width: 640, height: 480, bands: 1), "combined, grey")
        try assertParity(combined, on: try GPUSupport.pattern(width: 640, height: 480, bands: 2), "combined, grey and alpha")
    }

    func testSampleProjectPhotos() throws {
        let manifest = try ProjectLoader.load(GPUSupport.sample)
        for asset in manifest.assets where !asset.path.hasSuffix(".mp4") {
            let image = try VipsImage.load(GPUSupport.sample.appendingPathComponent(asset.path).path)
            try assertParity(asset.edits, on: image, asset.path)
        }
    }
}
