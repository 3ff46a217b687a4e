"""The public archive of a campaign: a static site drawn from its public record alone
(:func:`build_site`), and its signed feed of public events (:mod:`.feed`)."""

from adjudicator.site.build import RecordDoesNotVerify, SiteError, SiteWritten, build_site

__all__ = ["RecordDoesNotVerify", "SiteError", "SiteWritten", "build_site"]
