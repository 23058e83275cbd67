#version 450
// lanczos-source.glsl for one plane of YUV pictures (one-channel working pictures).
#extension GL_GOOGLE_include_directive : require
#define ONE_CHANNEL
#include "lanczos-source.glsl"
