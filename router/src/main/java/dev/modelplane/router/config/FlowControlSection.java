package dev.modelplane.router.config;

import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.plugin.Quantities;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads the {@code flowControl} section into the flow controller's settings. */
final class FlowControlSection {
  private FlowControlSection() {
  }

  /** The settings; GIE's defaults when the section is absent. Duplicate band priorities are an error. */
  static FlowControlConfig read(EndpointPickerConfig.FlowControl fc) {
    if (fc == null) {
      return FlowControlConfig.DEFAULT;
    }
    FlowControlConfig.BandConfig defaultBand = fc.defaultPriorityBand() == null
        ? FlowControlConfig.DEFAULT.defaultBand() : band(fc.defaultPriorityBand());
    List<FlowControlConfig.BandConfig> bands = new ArrayList<>();
    if (fc.priorityBands() != null) {
      Set<Integer> seen = new HashSet<>();
      for (EndpointPickerConfig.PriorityBand b : fc.priorityBands()) {
        if (!seen.add(b.priority())) {
          throw new IllegalArgumentException("flowControl.priorityBands: duplicate priority " + b.priority());
        }
        bands.add(band(b));
      }
    }
    return new FlowControlConfig(Quantities.quantity(fc.maxBytes()), Quantities.quantity(fc.maxRequests()),
        Quantities.duration(fc.defaultRequestTTL(), "flowControl.defaultRequestTTL"), defaultBand, bands);
  }

  private static FlowControlConfig.BandConfig band(EndpointPickerConfig.PriorityBand b) {
    return new FlowControlConfig.BandConfig(b.priority(), Quantities.quantity(b.maxBytes()),
        Quantities.quantity(b.maxRequests()), b.fairnessPolicyRef(), b.orderingPolicyRef());
  }
}
