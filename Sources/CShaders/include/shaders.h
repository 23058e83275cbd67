#ifndef MEDIAJOB_SHADERS_H
#define MEDIAJOB_SHADERS_H
// The render stage's compute shaders as SPIR-V, compiled from glsl/ by Scripts/make-shaders.
#include <stddef.h>
#include <stdint.h>

/// One shader module's SPIR-V words.
typedef struct {
    const uint32_t *words;
    size_t count;
} MJShader;

/// Crop, quarter turns and whole-factor box shrink (glsl/transform.comp).
extern const MJShader mj_shader_transform;
/// One axis of a Lanczos3 resize (glsl/lanczos.comp).
extern const MJShader mj_shader_lanczos;
/// The same two for one plane of YUV pictures: one-channel working pictures (glsl/*-plane.comp).
extern const MJShader mj_shader_transform_plane;
extern const MJShader mj_shader_lanczos_plane;
/// Back to 8 bits with exposure, contrast and saturation (glsl/finish.comp).
extern const MJShader mj_shader_finish;
/// RGBA8 to planar YUV 4:2:0 (glsl/yuv420.comp).
extern const MJShader mj_shader_yuv420;
/// One resized plane back to 8 bits, into its place in YUV 4:2:0 pictures (glsl/plane.comp).
extern const MJShader mj_shader_plane;

#endif
