from srl_zoo.data.fields.srl_frames_field import SrlFramesField
