package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The share of a serverless component's traffic that one revision receives.
 *
 * @param tag Name under which the revision is also reachable on its own, e.g. {@code prev} for the previously
 *     rolled-out revision.
 * @param revisionName The revision receiving this share.
 * @param configurationName The configuration whose latest ready revision receives this share, when the target
 *     follows the configuration rather than a fixed revision.
 * @param latestRevision Whether this target follows the latest ready revision.
 * @param percent Percentage of traffic this target receives.
 * @param url URL under which the tagged revision can be reached.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TrafficTarget(
    String tag,
    String revisionName,
    String configurationName,
    Boolean latestRevision,
    Long percent,
    String url) {
}
