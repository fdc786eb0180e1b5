"""Supports only cbc and a few features, and skips t-cbc-setup itself."""
import _ref


def hook(message):
    if message.get("cmd") == "start":
        return {"ready": True, "protocol": 1,
                "implementation": {"name": "partial", "version": "0.1", "language": "python"},
                "rulesets": ["cbc"], "features": ["setup", "card-points", "sequences"]}
    if message.get("id") == "t-cbc-setup":
        return {"id": message["id"], "skipped": True, "message": "no setup query here"}


_ref.serve(hook)
