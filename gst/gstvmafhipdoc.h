/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_DOC_H__
#define __GST_VMAF_HIP_DOC_H__

/* What vmafhipcompare posts, as element metadata ("messages", "tags"), so
 * that gst-inspect-1.0 vmafhipcompare shows it next to the properties.
 * docs/element.md has the same in full. */

#define VH_DOC_INDENT "\n                             "

#define GST_VMAF_HIP_DOC_MESSAGES \
  "element messages, all times guint64 ns (GST_CLOCK_TIME_NONE: unknown):" \
  VH_DOC_INDENT \
  "\"vmaf\": one per scored frame, in frame order, once its values are" \
  VH_DOC_INDENT \
  "  final (motion needs the next frame; frame-message=false: none):" \
  VH_DOC_INDENT \
  "  timestamp, stream-time, running-time, duration (guint64): the frame's;" \
  VH_DOC_INDENT \
  "  lag (guint64, live only): how far behind real time it was scored;" \
  VH_DOC_INDENT \
  "  index (guint64): frame number since start (subsample=N: multiples of N);" \
  VH_DOC_INDENT \
  "  pad, label (string): the distorted pad scored and its label property;" \
  VH_DOC_INDENT \
  "  score (double): the first model's score (no model: absent);" \
  VH_DOC_INDENT \
  "  one double per model score (vmaf, NAME_bagging, NAME_ci_p95_lo, ...)" \
  VH_DOC_INDENT \
  "  and per feature output, under libvmaf's log names (psnr_y, psnr_cb," \
  VH_DOC_INDENT \
  "  psnr_cr, float_ssim, float_ms_ssim, integer_adm2, integer_vif_scale0," \
  VH_DOC_INDENT \
  "  integer_motion2, cambi, ...);" \
  VH_DOC_INDENT \
  "  align=content: align-offset-frames, align-offset (gint64): the pair's" \
  VH_DOC_INDENT \
  "  offset, reference minus distorted, in frames and ns;" \
  VH_DOC_INDENT \
  "  unpaired=repeat: repeated (boolean, when true): scored against the" \
  VH_DOC_INDENT \
  "  last distorted frame shown, its own dropped by the chain." \
  VH_DOC_INDENT \
  "\"vmaf-align\" (align=content): when the offset locks, moves or is lost:" \
  VH_DOC_INDENT \
  "  state (string: locked, offset-changed, lost), locked (boolean)," \
  VH_DOC_INDENT \
  "  align-offset-frames, align-offset (gint64), reason (string, when" \
  VH_DOC_INDENT \
  "  lost: still, ambiguous, no-match), distorted-index (guint64)." \
  VH_DOC_INDENT \
  "\"vmaf-summary\": one at end of stream, after the last \"vmaf\" and the" \
  VH_DOC_INDENT \
  "  results file, before EOS leaves the element:" \
  VH_DOC_INDENT \
  "  scored, skipped (guint64): frames scored, left out by subsample;" \
  VH_DOC_INDENT \
  "  unpaired-reference, unpaired-distorted (guint64): frames without a" \
  VH_DOC_INDENT \
  "  partner; dropped-reference, dropped-distorted (guint64): frames the" \
  VH_DOC_INDENT \
  "  aggregator dropped (late, outside the segment) before pairing;" \
  VH_DOC_INDENT \
  "  pool-method (string); score (double): the first model's score pooled" \
  VH_DOC_INDENT \
  "  by pool-method; results-filename (string): when a file was written;" \
  VH_DOC_INDENT \
  "  align=content: align (string), align-locked (boolean)," \
  VH_DOC_INDENT \
  "  align-offset-frames, align-offset (gint64), align-changes and the" \
  VH_DOC_INDENT \
  "  unpaired frames by cause (guint64: align-reference-dropped, ...);" \
  VH_DOC_INDENT \
  "  unpaired=repeat: repeated-distorted (guint64);" \
  VH_DOC_INDENT \
  "  per output name, a \"pooled\" GstStructure: frames (guint64), mean," \
  VH_DOC_INDENT \
  "  harmonic-mean, min, max, p<N> per percentiles (double), below-<T>" \
  VH_DOC_INDENT \
  "  per thresholds (guint64, model outputs); max-lag (guint64, live);" \
  VH_DOC_INDENT \
  "  pad, label (string): one summary per distorted pad (dist_sink," \
  VH_DOC_INDENT \
  "  dist_sink_%u)." \
  VH_DOC_INDENT \
  "\"vmaf-window\": per window-frames frames or window-duration of stream" \
  VH_DOC_INDENT \
  "  time, the partial last one at end of stream: pad (string)," \
  VH_DOC_INDENT \
  "  window-start, window-end, first-frame, last-frame (guint64)," \
  VH_DOC_INDENT \
  "  frames (guint); per metric a structure: min, max, mean," \
  VH_DOC_INDENT \
  "  harmonic-mean, p<N> (double); model outputs: below-<T> (guint)," \
  VH_DOC_INDENT \
  "  worst-time (guint64)." \
  VH_DOC_INDENT \
  "\"vmaf-event\": type (black, freeze, low-score), input (reference," \
  VH_DOC_INDENT \
  "  distorted), pad, state (start, end) (strings); start (guint64);" \
  VH_DOC_INDENT \
  "  on end: end, duration (guint64), frames (guint); low-score: metric" \
  VH_DOC_INDENT \
  "  (string), threshold, min (double)." \
  VH_DOC_INDENT \
  "message-layout=vmaf posts GStreamer's vmaf element's \"VMAF\" messages" \
  VH_DOC_INDENT \
  "  instead (type=frame|pooled): see docs/migrating-from-vmaf.md." \
  VH_DOC_INDENT \
  "warnings: unpaired or dropped frames (GST_STREAM_ERROR_FAILED, the" \
  VH_DOC_INDENT \
  "  counts in the details structure), no frame scored; live scoring" \
  VH_DOC_INDENT \
  "  behind real time past lag-warning (GST_CORE_ERROR_CLOCK, once per" \
  VH_DOC_INDENT \
  "  episode, lag in the details)."

#define GST_VMAF_HIP_DOC_TAGS \
  "pooled by pool-method over the frames scored so far, posted on the bus" \
  VH_DOC_INDENT \
  "and pushed downstream every tag-interval frames and at end of stream" \
  VH_DOC_INDENT \
  "(dist_sink's; each dist_sink_%u's posted from that pad):" \
  VH_DOC_INDENT \
  "vmafhip-score (double): the first model's score;" \
  VH_DOC_INDENT \
  "vmafhip-psnr-y, vmafhip-ssim, vmafhip-ms-ssim (double): with the psnr," \
  VH_DOC_INDENT \
  "  float_ssim and float_ms_ssim features;" \
  VH_DOC_INDENT \
  "vmafhip-frames (guint): how many frames the values pool."

#endif /* __GST_VMAF_HIP_DOC_H__ */
