#version 450
// transform.glsl for one plane of YUV pictures (one-channel working pictures).
#extension GL_GOOGLE_include_directive : require
#define ONE_CHANNEL
#include "transform.glsl"
