import GPURender
import Vulkan
import XCTest

/// Resource probing on this machine's Vulkan: Mesa's lavapipe (a software device) in CI.
final class GPUProbeTests: XCTestCase {
    func testSoftwareDeviceIsSelectedOnlyWhenAllowed() throws {
        let refused = GPUSelection.probe(environment: [:])
        let software = try XCTUnwrap(refused.report.devices.first { $0.info.type == .cpu }, "lavapipe is installed by Scripts/setup")
        XCTAssertNil(refused.renderer)
        XCTAssertFalse(software.selected)
        XCTAssertTrue(software.reason.contains("MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1"), software.reason)
        XCTAssertTrue(refused.report.reason.contains("only software"), refused.report.reason)

        let allowed = GPUSelection.probe(environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])
        XCTAssertNotNil(allowed.renderer)
        let selected = try XCTUnwrap(allowed.report.selected.map { allowed.report.devices[$0] })
        XCTAssertEqual(selected.info.type, .cpu)
        XCTAssertTrue(selected.reason.contains("passed the self-test"), selected.reason)
        XCTAssertFalse(selected.info.computeQueueFamilies.isEmpty)
        XCTAssertGreaterThan(selected.info.maxStorageBufferRange, 0)
        XCTAssertGreaterThan(allowed.report.memoryBudgetBytes ?? 0, 0)
    }

    func testMissingLoaderIsReportedNotFatal() {
        let selection = GPUSelection.probe(environment: ["MEDIAJOB_VULKAN_LOADER": "/nonexistent/libvulkan.so.1",
                                                         "MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])
        XCTAssertNil(selection.renderer)
        XCTAssertNil(selection.report.loader)
        XCTAssertTrue(selection.report.reason.hasPrefix("no Vulkan loader"), selection.report.reason)
    }
}
