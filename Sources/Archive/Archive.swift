import CArchive
