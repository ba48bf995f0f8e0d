package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * The accelerator hardware of the serving pods.
 *
 * @param type The accelerator family. It picks the device-plugin resource each serving container requests (both
 *     as request and as limit), in the amount {@code parallelism.tensor × parallelism.dataLocal}: {@code nvidia}
 *     → {@code nvidia.com/gpu}, {@code amd} → {@code amd.com/gpu}, {@code intel-gaudi} → {@code habana.ai/gaudi},
 *     {@code google} → {@code google.com/tpu}; {@code cpu} requests no device at all.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceleratorSpec(@Required AcceleratorType type) {
}
