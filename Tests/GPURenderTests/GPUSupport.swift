import Foundation
import GPURender
@testable import MediaJobs
import Vips
import Vulkan
import XCTest

/// The device GPU tests render on, shared by all of them: the device probing selects with
/// software devices allowed, so a GPU where the machine has one, else lavapipe.
enum GPUSupport {
    static let selection = GPUSelection.probe(environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])

    static func renderer() throws -> GPURenderer {
        try XCTUnwrap(selection.renderer, "no Vulkan device could render: \(selection.report.reason)")
    }

    /// Another renderer on the selected device, with its own memory budget (bytes).
    static func renderer(memoryBudget: Int) throws -> GPURenderer {
        let selected = try XCTUnwrap(selection.report.selected.map { selection.report.devices[$0].info },
                                     "no Vulkan device could render: \(selection.report.reason)")
        let device = try XCTUnwrap(try Instance(loader: VulkanLoader()).physicalDevices().first { $0.info == selected },
                                   "\(selected.name) is no longer offered")
        return try GPURenderer(device, memoryBudget: memoryBudget)
    }

    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Media/sample")

    /// A photo-like test picture: smooth gradients, fine detail and hard edges, deterministic.
    static func pattern(width: Int, height: Int, bands: Int) throws -> VipsImage {
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                let detail = 40 * sin(Double(x) * 0.7) * cos(Double(y) * 0.45)
                let edge = (x / 37 + y / 29) % 2 == 0 ? 30.0 : -30.0
                let values = [
                    110 + 90 * fx + detail + edge, 60 + 150 * fy - detail * 0.5, 200 - 120 * fx * fy + edge * 0.5,
                    255 * (0.5 + 0.5 * sin(fx * 6)),
                ]
                for band in 0..<bands {
                    let value = bands == 2 && band == 1 ? values[3] : values[band]
                    bytes[(y * width + x) * bands + band] = UInt8(max(0, min(255, value.rounded())))
                }
            }
        }
        return try VipsImage.fromPixels(Data(bytes), width: width, height: height, bands: bands)
    }
}
