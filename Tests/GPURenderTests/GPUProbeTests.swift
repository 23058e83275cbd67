import GPURender
import Vulkan
import XCTest

/// Resource probing on this machine's Vulkan: Mesa's lavapipe (a software device, installed by
/// Scripts/setup) and whatever GPUs the machine has. Nothing here assumes lavapipe is the only
/// device: the expectations follow from the types of the devices found.
final class GPUProbeTests: XCTestCase {
    func testSoftwareDeviceIsSelectedOnlyWhenAllowedAndAfterEveryGPU() throws {
        let refused = GPUSelection.probe(environment: [:])
        let software = try XCTUnwrap(refused.report.devices.first { $0.info.type == .cpu }, "lavapipe is installed by Scripts/setup")
        let hasGPU = refused.report.devices.contains { $0.info.type.isHardware }
        XCTAssertFalse(software.selected)
        XCTAssertTrue(software.reason.contains("MEDIAJOB_VULKAN_ALLOW_SOFTWARE=1"), software.reason)
        if let selected = refused.report.selected {
            XCTAssertTrue(refused.report.devices[selected].info.type.isHardware, "only a GPU is selected without the allowance")
        } else {
            XCTAssertNil(refused.renderer)
            if !hasGPU { XCTAssertTrue(refused.report.reason.contains("only software"), refused.report.reason) }
        }

        let allowed = GPUSelection.probe(environment: ["MEDIAJOB_VULKAN_ALLOW_SOFTWARE": "1"])
        XCTAssertNotNil(allowed.renderer)
        let selected = try XCTUnwrap(allowed.report.selected.map { allowed.report.devices[$0] })
        if refused.report.selected != nil {
            XCTAssertTrue(selected.info.type.isHardware, "a GPU that passed the self-test comes before the software device")
        } else {
            XCTAssertEqual(selected.info.type, .cpu)
        }
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
