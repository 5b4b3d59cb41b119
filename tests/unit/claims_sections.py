"""The two toy documents the claim checker's tests check answers against."""

from __future__ import annotations

TRAVEL = (
    "Daily allowances are paid per night away.\n"
    "Bergen: the daily allowance is 910 NOK. Tromsø: the daily allowance is 980 NOK.\n"
    "Contractors are not reimbursed for meals."
)
SENSOR = "The CTD-41 must be calibrated every 18 months. Its depth rating is 2,000 m."
SECTIONS = {
    "sec-travel": {"text": TRAVEL, "title": "Travel policy", "source": "/x/travel.md"},
    "sec-ctd": {"text": SENSOR, "heading_path": ["CTD-41 manual"], "source": "ctd.md"},
}
