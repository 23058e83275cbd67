import GPURender
import Vulkan
import XCTest

/// The renderer keeps its buffers within its memory budget and says so when work would not fit.
final class MemoryBudgetTests: XCTestCase {
    func testWorkOverTheBudgetIsRefusedAndBatchesShrinkToFit() throws {
        let renderer = try GPUSupport.renderer(memoryBudget: 8 << 20)
        let frame = RenderRecipe(sourceWidth: 320, sourceHeight: 240, channels: 3, width: 160, height: 120)
        let batch = renderer.batchCapacity(for: frame, output: .yuv420(.bt601), limit: 64)
        XCTAssertGreaterThan(batch, 0)
        XCTAssertLessThan(batch, 64, "an 8 MiB budget holds fewer than 64 of these pictures")
        let source = [UInt8](repeating: 90, count: 320 * 240 * 3)
        try renderer.render(frame, count: batch, output: .yuv420(.bt601), fill: { _, pointer in
            source.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }, read: { _, _ in })
        XCTAssertLessThanOrEqual(renderer.allocatedBytes, renderer.memoryBudget)

        let large = RenderRecipe(sourceWidth: 2000, sourceHeight: 2000, channels: 4, width: 1000, height: 1000)
        XCTAssertThrowsError(try renderer.render(large, count: 1, output: .rgba, fill: { _, _ in }, read: { _, _ in })) { error in
            XCTAssertEqual((error as? VulkanError)?.kind, .outOfMemory)
            XCTAssertTrue("\(error)".contains("over the budget of 8 MiB"), "\(error)")
        }
        XCTAssertLessThanOrEqual(renderer.allocatedBytes, renderer.memoryBudget)
    }
}
