package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.AccelerationStatus;
import org.junit.jupiter.api.Test;

/** Log excerpts written for these tests in the shape llama-server prints while loading a model. */
class AccelerationLogTest {
  @Test
  void aCudaLoadReportsTheDeviceAndTheOffloadedLayers() {
    String log = """
        ggml_cuda_init: found 1 CUDA devices:
          Device 0: NVIDIA L4, compute capability 8.9, VMM: yes
        build: 6512 (a1b2c3d4) with cc (Ubuntu 11.4.0) for x86_64-linux-gnu
        llama_model_load_from_file_impl: using device CUDA0 (NVIDIA L4) - 22478 MiB free
        llama_model_loader: loaded meta data with 30 key-value pairs and 292 tensors
        load_tensors: offloading 32 repeating layers to GPU
        load_tensors: offloaded 33/33 layers to GPU
        load_tensors:        CUDA0 model buffer size =  4403.49 MiB
        main: server is listening on http://0.0.0.0:8080
        """;
    assertThat(AccelerationLog.parse(log)).isEqualTo(new AccelerationStatus("CUDA0 (NVIDIA L4)", 33, 33));
  }

  @Test
  void zeroOffloadedLayersIsTheCpuWhateverDeviceWasFound() {
    String log = """
        llama_model_load_from_file_impl: using device Vulkan0 (AMD Radeon 8060S Graphics) - 65536 MiB free
        load_tensors: offloaded 0/49 layers to GPU
        load_tensors:   CPU_Mapped model buffer size = 18000.00 MiB
        """;
    assertThat(AccelerationLog.parse(log)).isEqualTo(new AccelerationStatus("CPU", 0, 49));
  }

  @Test
  void aCpuOnlyBuildWithoutADeviceLineIsTheCpuAndAPartialOffloadKeepsTheDevice() {
    assertThat(AccelerationLog.parse("llm_load_tensors: offloaded 0/29 layers to GPU\n"))
        .isEqualTo(new AccelerationStatus("CPU", 0, 29));
    assertThat(AccelerationLog.parse("""
        llama_model_load_from_file_impl: using device ROCm0 (Radeon RX 7900 XTX) - 24000 MiB free
        load_tensors: offloaded 20/81 layers to GPU
        """)).isEqualTo(new AccelerationStatus("ROCm0 (Radeon RX 7900 XTX)", 20, 81));
    assertThat(AccelerationLog.parse("load_tensors: offloaded 12/40 layers to GPU\n"))
        .isEqualTo(new AccelerationStatus("GPU", 12, 40));
  }

  @Test
  void aLogThatHasNotReachedLoadingSaysNothing() {
    assertThat(AccelerationLog.parse("build: 6512 (a1b2c3d4)\nsystem info: n_threads = 8\n")).isNull();
    assertThat(AccelerationLog.parse(null)).isNull();
  }
}
