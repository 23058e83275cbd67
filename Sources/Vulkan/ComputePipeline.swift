import CVulkan

/// An owned compute pipeline made from one SPIR-V shader whose bindings 0…n−1 are buffers —
/// storage buffers, or uniform texel buffers it only reads — and which takes push constants; its
/// shader module and layouts go with it.
public final class ComputePipeline: @unchecked Sendable {
    let device: Device
    let shader: VkShaderModule
    let setLayout: VkDescriptorSetLayout
    let layout: VkPipelineLayout
    let handle: VkPipeline
    /// What the shader binds, in binding order: `nil` for a storage buffer, else the format of a
    /// uniform texel buffer.
    public let bindings: [TexelFormat?]
    /// How many push-constant bytes it takes.
    public let pushConstantSize: Int

    /// Builds the pipeline from `spirv` (entry point `main`) with `bindings` as ``bindings`` says.
    public init(device: Device, spirv: UnsafeBufferPointer<UInt32>, bindings: [TexelFormat?], pushConstantSize: Int) throws {
        self.device = device
        self.bindings = bindings
        self.pushConstantSize = pushConstantSize
        let f = device.functions
        var moduleInfo = VkShaderModuleCreateInfo()
        moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
        moduleInfo.codeSize = spirv.count * 4
        moduleInfo.pCode = spirv.baseAddress
        var createdShader: VkShaderModule?
        try check(f.createShaderModule(device.handle, &moduleInfo, nil, &createdShader), "vkCreateShaderModule")
        let shader = createdShader!
        self.shader = shader

        var layoutBindings = bindings.enumerated().map { index, texels in
            var binding = VkDescriptorSetLayoutBinding()
            binding.binding = UInt32(index)
            binding.descriptorType = texels == nil ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
            binding.descriptorCount = 1
            binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
            return binding
        }
        var setInfo = VkDescriptorSetLayoutCreateInfo()
        setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
        setInfo.bindingCount = UInt32(bindings.count)
        var setLayout: VkDescriptorSetLayout?
        let setResult = layoutBindings.withUnsafeMutableBufferPointer { pointer in
            setInfo.pBindings = UnsafePointer(pointer.baseAddress)
            return f.createDescriptorSetLayout(device.handle, &setInfo, nil, &setLayout)
        }
        guard setResult == VK_SUCCESS, let setLayout else {
            f.destroyShaderModule(device.handle, shader, nil)
            try check(setResult, "vkCreateDescriptorSetLayout")
            throw VulkanError(.callFailed, operation: "vkCreateDescriptorSetLayout", reason: "no layout returned")
        }
        self.setLayout = setLayout

        var range = VkPushConstantRange()
        range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT.rawValue
        range.size = UInt32(pushConstantSize)
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        var layout: VkPipelineLayout?
        let layoutResult = withUnsafePointer(to: &range) { rangePointer in
            withUnsafePointer(to: Optional(setLayout)) { setLayoutPointer in
                layoutInfo.setLayoutCount = 1
                layoutInfo.pSetLayouts = setLayoutPointer
                layoutInfo.pushConstantRangeCount = pushConstantSize > 0 ? 1 : 0
                layoutInfo.pPushConstantRanges = rangePointer
                return f.createPipelineLayout(device.handle, &layoutInfo, nil, &layout)
            }
        }
        guard layoutResult == VK_SUCCESS, let layout else {
            f.destroyDescriptorSetLayout(device.handle, setLayout, nil)
            f.destroyShaderModule(device.handle, shader, nil)
            try check(layoutResult, "vkCreatePipelineLayout")
            throw VulkanError(.callFailed, operation: "vkCreatePipelineLayout", reason: "no layout returned")
        }
        self.layout = layout

        var pipeline: VkPipeline?
        let pipelineResult = "main".withCString { entry in
            var info = VkComputePipelineCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO
            info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT
            info.stage.module = shader
            info.stage.pName = entry
            info.layout = layout
            return f.createComputePipelines(device.handle, nil, 1, &info, nil, &pipeline)
        }
        guard pipelineResult == VK_SUCCESS, let pipeline else {
            f.destroyPipelineLayout(device.handle, layout, nil)
            f.destroyDescriptorSetLayout(device.handle, setLayout, nil)
            f.destroyShaderModule(device.handle, shader, nil)
            try check(pipelineResult, "vkCreateComputePipelines")
            throw VulkanError(.callFailed, operation: "vkCreateComputePipelines", reason: "no pipeline returned")
        }
        handle = pipeline
    }

    deinit {
        let f = device.functions
        f.destroyPipeline(device.handle, handle, nil)
        f.destroyPipelineLayout(device.handle, layout, nil)
        f.destroyDescriptorSetLayout(device.handle, setLayout, nil)
        f.destroyShaderModule(device.handle, shader, nil)
    }
}
