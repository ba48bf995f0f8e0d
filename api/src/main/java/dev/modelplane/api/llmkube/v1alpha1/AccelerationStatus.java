package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where the model server actually put the model when it loaded, read from its log (llama.cpp). Shows a silent
 * fall-back to the CPU. Absent when unknown, for example for CPU-only services or runtimes that do not report it.
 *
 * @param device The device that serves the model as the server names it, for example
 *     {@code Vulkan0 (AMD Radeon 8060S)} or {@code CPU}.
 * @param layersOffloaded Number of the model's layers placed on an accelerator; 0 means everything runs on the CPU.
 * @param layersTotal Number of layers the model has, to compare with {@code layersOffloaded}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AccelerationStatus(
    String device,
    Integer layersOffloaded,
    Integer layersTotal) {
}
