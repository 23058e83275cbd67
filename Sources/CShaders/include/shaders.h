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
/// The horizontal Lanczos pass straight from the uploaded pictures, through the crop and turns,
/// when there is no box shrink: packed and one-plane (glsl/lanczos-source*.comp).
extern const MJShader mj_shader_lanczos_source;
extern const MJShader mj_shader_lanczos_source_plane;
/// The vertical Lanczos pass writing 8-bit results: packed pictures to RGBA8 with exposure,
/// contrast and saturation (glsl/lanczos-rgba8.comp); one plane of YUV pictures into its place
/// in YUV 4:2:0 pictures (glsl/lanczos-plane8.comp); and all three planes through RGB, the colour
/// steps and back to YUV 4:2:0 (glsl/lanczos-yuv420.comp).
extern const MJShader mj_shader_lanczos_rgba8;
extern const MJShader mj_shader_lanczos_plane8;
extern const MJShader mj_shader_lanczos_yuv420;
/// RGBA8 to planar YUV 4:2:0 (glsl/yuv420.comp).
extern const MJShader mj_shader_yuv420;

#endif
