#include "shaders.h"

// Each spirv/*.spv.inc is `glslc -mfmt=c` output: a braced list of the module's words.
#define SHADER(name) \
    const MJShader mj_shader_##name = { name##_words, sizeof(name##_words) / sizeof(uint32_t) };

static const uint32_t transform_words[] =
#include "spirv/transform.spv.inc"
;
SHADER(transform)

static const uint32_t lanczos_words[] =
#include "spirv/lanczos.spv.inc"
;
SHADER(lanczos)

static const uint32_t transform_plane_words[] =
#include "spirv/transform-plane.spv.inc"
;
SHADER(transform_plane)

static const uint32_t lanczos_plane_words[] =
#include "spirv/lanczos-plane.spv.inc"
;
SHADER(lanczos_plane)

static const uint32_t lanczos_source_words[] =
#include "spirv/lanczos-source.spv.inc"
;
SHADER(lanczos_source)

static const uint32_t lanczos_source_plane_words[] =
#include "spirv/lanczos-source-plane.spv.inc"
;
SHADER(lanczos_source_plane)

static const uint32_t lanczos_rgba8_words[] =
#include "spirv/lanczos-rgba8.spv.inc"
;
SHADER(lanczos_rgba8)

static const uint32_t lanczos_plane8_words[] =
#include "spirv/lanczos-plane8.spv.inc"
;
SHADER(lanczos_plane8)

static const uint32_t lanczos_yuv420_words[] =
#include "spirv/lanczos-yuv420.spv.inc"
;
SHADER(lanczos_yuv420)

static const uint32_t yuv420_words[] =
#include "spirv/yuv420.spv.inc"
;
SHADER(yuv420)
